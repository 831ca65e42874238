import { RateLimit, TakeResult, TokenBuckets } from './token-buckets';

/**
 * Where the token buckets live (RATE_LIMIT_STORE): `memory`, each gateway instance its own (N instances
 * allow N × the limit), or `postgres`, one bucket per partner (or operator key) shared by every instance.
 * A bucket id is the partner's id, or `operator:<operator key id>`.
 */
export interface RateLimitStore {
  take(bucketId: string, limit: RateLimit): Promise<TakeResult>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** This process's buckets: no I/O, the limit is per gateway instance. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new TokenBuckets();

  async take(bucketId: string, limit: RateLimit): Promise<TakeResult> {
    return this.buckets.take(bucketId, limit);
  }
}
