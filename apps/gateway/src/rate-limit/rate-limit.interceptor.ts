import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { from, mergeMap, Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/api-key.guard';
import { GatewayConfig } from '../config/gateway.config';
import { apiErrorOf } from '../http/api-error';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit.store';
import { RateLimit, TakeResult } from './token-buckets';

/**
 * Per-partner rate limit (README: "Rate limiting"). Interceptors run after guards, so the partner is
 * known: ApiKeyGuard has authenticated it, and unauthenticated requests (already answered 401) and
 * routes without a partner (health, admin sandbox routes) are not counted. It runs before validation,
 * so malformed requests count too. The partner's own limit (set at creation) wins over the defaults.
 * When the shared store cannot be reached the request is let through (logged): a database hiccup must
 * not turn into a 429 or a 500 for every partner.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  private readonly logger = new Logger(RateLimitInterceptor.name);
  private readonly defaults: RateLimit;

  constructor(
    config: GatewayConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {
    this.defaults = { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST };
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const partner = http.getRequest<Partial<AuthenticatedRequest>>().partner;
    if (!partner) return next.handle();
    const perSecond = partner.rateLimitPerSecond ?? this.defaults.perSecond;
    const burst = partner.rateLimitBurst ?? (partner.rateLimitPerSecond ? Math.max(1, partner.rateLimitPerSecond) : this.defaults.burst);
    return from(this.take(partner.id, { perSecond, burst })).pipe(
      mergeMap((taken) => {
        if (!taken.allowed) {
          void http.getResponse<FastifyReply>().header('retry-after', String(taken.retryAfterSeconds));
          throw apiErrorOf({ code: 'rate_limited', message: `too many requests: at most ${perSecond} per second (bursts of ${burst}); retry after ${taken.retryAfterSeconds} s` });
        }
        return next.handle();
      }),
    );
  }

  private async take(partnerId: string, limit: RateLimit): Promise<TakeResult> {
    try {
      return await this.store.take(partnerId, limit);
    } catch (error) {
      this.logger.warn(`rate limit store unavailable, request let through: ${(error as Error).message}`);
      return { allowed: true };
    }
  }
}
