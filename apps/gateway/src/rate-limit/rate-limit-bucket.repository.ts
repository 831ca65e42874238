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
    const { rows } = await this.prisma.pool.query<{ allowed: boolean; tokens: number }>({
      name: 'rate_limit_take',
      text: 'SELECT allowed, tokens FROM take_rate_limit_token($1::uuid, $2::float8, $3::float8)',
      values: [partnerId, limit.burst, limit.perSecond],
    });
    const row = rows[0];
    return row.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: retryAfterSeconds(row.tokens, limit) };
  }
}
