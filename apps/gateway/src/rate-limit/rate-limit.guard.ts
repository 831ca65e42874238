import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/api-key.guard';
import { GatewayConfig } from '../config/gateway.config';
import { apiErrorOf } from '../http/api-error';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit.store';
import { RateLimit, TakeResult } from './token-buckets';
import { rateLimitFields } from './rate-limit-fields';

/**
 * Per-partner rate limit (docs/api.md: "Rate limiting"; docs/architecture.md: "Rate limit").
 * It runs right after ApiKeyGuard (PartnerAuth puts
 * them in that order), so the partner is known and unauthenticated requests (already answered 401) are
 * not counted; it runs before validation (pipes), so malformed requests count too. The partner's own
 * limit (set at creation) wins over the defaults. On operator routes it runs after AdminKeyGuard
 * (OperatorAuth) and limits each operator key (ADMIN_RATE_LIMIT_*, bucket `operator:<key id>`). When the
 * shared store cannot be reached, a read is let through (logged): a database hiccup must not turn into a
 * 429 or a 500 for every partner's GET; a write is refused 503 `service_unavailable` with Retry-After
 * (fails closed): an unlimited caller must not move money or flood DICT and SMS while the limit is blind.
 * The partner retries it with the same idempotency key, as after any 503.
 *
 * Every answer it lets through or refuses carries the bucket's RateLimit-Policy and RateLimit fields
 * (rate-limit-fields.ts), read from the take itself: no second look at the store. They are set on the
 * reply here, so the answer keeps them whatever comes after (a validation error, a 503 included).
 *
 * A guard, not an interceptor: with no interceptor on a route Nest calls the handler directly, without
 * the RxJS pipeline and the AsyncResource it builds per request (about a tenth of the gateway's CPU).
 */
/** Methods that change nothing: let through when the store is down. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger(RateLimitGuard.name);
  private readonly defaults: RateLimit;
  private readonly operatorLimit: RateLimit;

  constructor(
    config: GatewayConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {
    this.defaults = { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST };
    this.operatorLimit = { perSecond: config.ADMIN_RATE_LIMIT_PER_SECOND, burst: config.ADMIN_RATE_LIMIT_BURST };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Partial<AuthenticatedRequest> & OperatorRequest>();
    const partner = request.partner;
    let bucketId: string;
    let limit: RateLimit;
    let policy: string;
    if (partner) {
      bucketId = partner.id;
      policy = 'partner';
      const perSecond = partner.rateLimitPerSecond ?? this.defaults.perSecond;
      limit = {
        perSecond,
        burst: partner.rateLimitBurst ?? (partner.rateLimitPerSecond ? Math.max(1, partner.rateLimitPerSecond) : this.defaults.burst),
      };
    } else if (request.operator) {
      bucketId = `operator:${request.operator.id}`;
      policy = 'operator';
      limit = this.operatorLimit;
    } else return true;
    const taken = await this.take(bucketId, limit, request.method);
    const reply = http.getResponse<FastifyReply>();
    for (const [name, value] of Object.entries(rateLimitFields(policy, limit, taken))) void reply.header(name, value);
    if (!taken || taken.allowed) return true;
    const { perSecond, burst } = limit;
    void reply.header('retry-after', String(taken.retryAfterSeconds));
    throw apiErrorOf({
      code: 'rate_limited',
      message: `too many requests: at most ${perSecond} per second (bursts of ${burst}); retry after ${taken.retryAfterSeconds} s`,
    });
  }

  /**
   * The take; when the store cannot be reached, undefined for a read (let through, level unknown) and a 503
   * for a write.
   */
  private async take(bucketId: string, limit: RateLimit, method: string | undefined): Promise<TakeResult | undefined> {
    try {
      return await this.store.take(bucketId, limit);
    } catch (error) {
      const read = method === undefined || READS.has(method);
      this.logger.warn(
        `rate limit store unavailable, ${read ? 'read let through' : `${method} refused (503)`}: ${(error as Error).message}`,
      );
      if (read) return undefined;
      throw apiErrorOf({
        code: 'service_unavailable',
        message: 'the rate limit cannot be checked now; nothing was done: retry (with the same idempotency_key)',
      });
    }
  }
}
