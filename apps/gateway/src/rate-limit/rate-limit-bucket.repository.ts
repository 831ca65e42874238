import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';
import { RateLimitStore } from './rate-limit.store';
import { RateLimit, retryAfterSeconds, TakeResult } from './token-buckets';

/**
 * The shared token buckets (RATE_LIMIT_STORE=postgres), one row per partner in gateway.rate_limit_buckets.
 * A take is one call of the migration's `take_rate_limit_token`: lock the partner's row, refill by the
 * time elapsed on the database's clock, take a token if there is one. Concurrent takes of one partner,
 * from any gateway instance, queue on that row for the length of one statement; other partners never wait.
 */
@Injectable()
export class RateLimitBucketRepository implements RateLimitStore {
  constructor(private readonly prisma: PrismaService) {}

  async take(partnerId: string, limit: RateLimit): Promise<TakeResult> {
    const [row] = await this.prisma.$queryRaw<Array<{ allowed: boolean; tokens: number }>>`
      SELECT allowed, tokens FROM take_rate_limit_token(${partnerId}::uuid, ${limit.burst}::float8, ${limit.perSecond}::float8)`;
    return row.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: retryAfterSeconds(row.tokens, limit) };
  }
}
