import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS_REGISTRY } from '@partner/platform';
import { Counter, Registry } from 'prom-client';
import { GatewayConfig } from '../config/gateway.config';
import { apiErrorOf, ApiError } from '../http/api-error';
import { RateLimit, TokenBuckets } from '../rate-limit/token-buckets';

/** Which API a refused key was presented to. */
export type AuthApi = 'partner' | 'operator';

/**
 * Failed authentications, per client address (docs/api.md: "Authentication", ADR 0016). Every key that
 * is neither cached nor known to be unknown costs a database lookup; an address whose unknown keys cost more than AUTH_FAILURES_PER_SECOND
 * lookups (bursts of AUTH_FAILURE_BURST) gets 429 with Retry-After for its next unknown keys, without a
 * lookup, until its bucket refills. Only failures keep their token, so a partner whose key works is never
 * throttled by its own traffic, and a cached key is answered before this is asked at all.
 * The address is the request's client address as Fastify reads it (X-Forwarded-For behind the proxy).
 *
 * It also counts every refusal on the gateway's /metrics: `gateway_auth_failures_total{api,status}`,
 * operator 401s included, which are counted here instead of written to the audit log one row each.
 */
@Injectable()
export class FailedAuthThrottle {
  private readonly buckets = new TokenBuckets(100_000);
  private readonly limit: RateLimit;
  private readonly failures: Counter<'api' | 'status'>;

  constructor(config: GatewayConfig, @Optional() @Inject(METRICS_REGISTRY) registry?: Registry) {
    this.limit = { perSecond: config.AUTH_FAILURES_PER_SECOND, burst: config.AUTH_FAILURE_BURST };
    this.failures = new Counter({
      name: 'gateway_auth_failures_total',
      help: 'Requests refused for want of a valid key, by API (partner, operator) and answer (401, or 429 once the address is throttled)',
      labelNames: ['api', 'status'],
      registers: registry ? [registry] : [],
    });
  }

  /**
   * Before a lookup: takes one of the address's tokens, or throws the 429 (setting Retry-After through
   * `setHeader`) when it has none. Taken before, not after, so that a flood's concurrent requests cannot
   * all be looking up at once: at most the burst is in flight. A lookup that finds the key gives it back.
   */
  beginLookup(api: AuthApi, address: string, setHeader: (name: string, value: string) => void): void {
    const state = this.buckets.take(address, this.limit);
    if (state.allowed) return;
    this.failures.inc({ api, status: '429' });
    setHeader('retry-after', String(state.retryAfterSeconds));
    throw apiErrorOf({
      code: 'rate_limited',
      message: `too many requests with unknown keys from this address; retry after ${state.retryAfterSeconds} s`,
    });
  }

  /** The lookup found the key, or the database failed it: not a made-up key, its token goes back. */
  refund(address: string): void {
    this.buckets.giveBack(address, this.limit);
  }

  /** Counts a 401 (an unknown key, a missing one, one known unknown from the cache) and returns it to throw. */
  refused(api: AuthApi, error: ApiError): ApiError {
    this.failures.inc({ api, status: '401' });
    return error;
  }
}
