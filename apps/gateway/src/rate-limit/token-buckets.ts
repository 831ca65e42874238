/** A partner's limit: a sustained rate and the burst a full bucket allows. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * What a take leaves, for the RateLimit header field: whole tokens left (`remaining`) and the whole seconds
 * until the bucket is full again (`resetSeconds`, 0 when it is).
 */
export interface BucketLevel {
  remaining: number;
  resetSeconds: number;
}

export type TakeResult = ({ allowed: true } | { allowed: false; retryAfterSeconds: number }) & BucketLevel;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Whole seconds until a bucket holding `tokens` has one again (Retry-After is an integer, at least 1). */
export const retryAfterSeconds = (tokens: number, limit: RateLimit): number => Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));

/** The answer to a take that left `tokens` in the bucket (the same arithmetic for the memory and the shared store). */
export function takeResult(allowed: boolean, tokens: number, limit: RateLimit): TakeResult {
  const level = {
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.max(0, Math.ceil((limit.burst - tokens) / limit.perSecond)),
  };
  return allowed ? { allowed: true, ...level } : { allowed: false, retryAfterSeconds: retryAfterSeconds(tokens, limit), ...level };
}

/**
 * Token buckets, one per key, in this process's memory (the limit is per gateway instance). A bucket
 * holds up to `burst` tokens and refills at `perSecond`; each request takes one. Refilling is computed
 * lazily on each take, so there is no timer; buckets that would be full again are dropped when the map
 * grows, which keeps memory bounded by the number of recently active partners.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly maxKeys = 10_000) {}

  take(key: string, limit: RateLimit, now = Date.now()): TakeResult {
    const bucket = this.buckets.get(key) ?? { tokens: limit.burst, updatedAt: now };
    const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(limit.burst, bucket.tokens + elapsedSeconds * limit.perSecond);
    bucket.updatedAt = now;
    if (!this.buckets.has(key)) this.remember(key, bucket, now, limit);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return takeResult(allowed, bucket.tokens, limit);
  }

  /** Returns a token taken for something that turned out not to count (never past the burst). */
  giveBack(key: string, limit: RateLimit): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(limit.burst, bucket.tokens + 1);
  }

  get size(): number {
    return this.buckets.size;
  }

  private remember(key: string, bucket: Bucket, now: number, limit: RateLimit): void {
    if (this.buckets.size >= this.maxKeys) {
      // A bucket idle long enough to be full again behaves exactly like a missing one: forget those.
      const refillMs = (limit.burst / limit.perSecond) * 1000;
      for (const [k, b] of this.buckets) if (now - b.updatedAt >= refillMs) this.buckets.delete(k);
      if (this.buckets.size >= this.maxKeys) this.buckets.clear();
    }
    this.buckets.set(key, bucket);
  }
}
