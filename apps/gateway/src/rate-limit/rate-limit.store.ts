import { RateLimit, TakeResult, TokenBuckets } from './token-buckets';

/**
 * Where the per-partner token buckets live (RATE_LIMIT_STORE): `memory`, each gateway instance its own
 * (N instances allow N × the limit), or `postgres`, one bucket per partner shared by every instance.
 */
export interface RateLimitStore {
  take(partnerId: string, limit: RateLimit): Promise<TakeResult>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** This process's buckets: no I/O, the limit is per gateway instance. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new TokenBuckets();

  async take(partnerId: string, limit: RateLimit): Promise<TakeResult> {
    return this.buckets.take(partnerId, limit);
  }
}
