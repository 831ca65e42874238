import { Injectable } from '@nestjs/common';
import { Database, statement } from '@partner/db';
import { RateLimitStore } from './rate-limit.store';
import { RateLimit, TakeResult, takeResult } from './token-buckets';

const TAKE = statement('rate_limit_take', 'SELECT allowed, tokens FROM take_rate_limit_token($1::text, $2::float8, $3::float8)');

/**
 * The shared token buckets (RATE_LIMIT_STORE=postgres), one row per bucket (a partner, or an operator key)
 * in gateway.rate_limit_buckets. A take is one call of the migration's `take_rate_limit_token`: lock the
 * bucket's row, refill by the time elapsed on the database's clock, take a token if there is one.
 * Concurrent takes of one bucket, from any gateway instance, queue on that row for the length of one
 * statement; other buckets never wait.
 */
@Injectable()
export class RateLimitBucketRepository implements RateLimitStore {
  constructor(private readonly db: Database) {}

  async take(bucketId: string, limit: RateLimit): Promise<TakeResult> {
    const { rows } = await this.db.query<{ allowed: boolean; tokens: number }>(TAKE, [bucketId, limit.burst, limit.perSecond]);
    return takeResult(rows[0].allowed, rows[0].tokens, limit);
  }
}
