import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/api-key.guard';
import { GatewayConfig } from '../config/gateway.config';
import { apiErrorOf } from '../http/api-error';
import { RateLimit, TokenBuckets } from './token-buckets';

/**
 * Per-partner rate limit (README: "Rate limiting"). Interceptors run after guards, so the partner is
 * known: ApiKeyGuard has authenticated it, and unauthenticated requests (already answered 401) and
 * routes without a partner (health, admin sandbox routes) are not counted. It runs before validation,
 * so malformed requests count too. The partner's own limit (set at creation) wins over the defaults.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  private readonly buckets = new TokenBuckets();
  private readonly defaults: RateLimit;

  constructor(config: GatewayConfig) {
    this.defaults = { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST };
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const partner = http.getRequest<Partial<AuthenticatedRequest>>().partner;
    if (partner) {
      const perSecond = partner.rateLimitPerSecond ?? this.defaults.perSecond;
      const burst = partner.rateLimitBurst ?? (partner.rateLimitPerSecond ? Math.max(1, partner.rateLimitPerSecond) : this.defaults.burst);
      const taken = this.buckets.take(partner.id, { perSecond, burst });
      if (!taken.allowed) {
        void http.getResponse<FastifyReply>().header('retry-after', String(taken.retryAfterSeconds));
        throw apiErrorOf({ code: 'rate_limited', message: `too many requests: at most ${perSecond} per second (bursts of ${burst}); retry after ${taken.retryAfterSeconds} s` });
      }
    }
    return next.handle();
  }
}
