import { TokenBuckets } from './token-buckets';

describe('TokenBuckets', () => {
  const limit = { perSecond: 2, burst: 3 };

  it('allows a burst, then refuses with the whole seconds until a token is back', () => {
    const buckets = new TokenBuckets();
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => buckets.take('p', limit, t0).allowed)).toEqual([true, true, true]);
    expect(buckets.take('p', limit, t0)).toEqual({ allowed: false, retryAfterSeconds: 1, remaining: 0, resetSeconds: 2 });
    // Half a second at 2/s refills one token.
    expect(buckets.take('p', limit, t0 + 500).allowed).toBe(true);
    expect(buckets.take('p', limit, t0 + 500).allowed).toBe(false);
  });

  it('never answers a Retry-After below one second, and rounds a slow refill up', () => {
    const buckets = new TokenBuckets();
    const slow = { perSecond: 0.25, burst: 1 };
    expect(buckets.take('p', slow, 0).allowed).toBe(true);
    expect(buckets.take('p', slow, 0)).toMatchObject({ allowed: false, retryAfterSeconds: 4 });
    expect(buckets.take('p', slow, 3_999)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(buckets.take('p', slow, 4_000).allowed).toBe(true);
  });

  it('reports the whole tokens left and the seconds until the bucket is full again', () => {
    const buckets = new TokenBuckets();
    expect(buckets.take('p', limit, 0)).toEqual({ allowed: true, remaining: 2, resetSeconds: 1 });
    expect(buckets.take('p', limit, 0)).toEqual({ allowed: true, remaining: 1, resetSeconds: 1 });
    // 3 tokens short at 2/s: full again in 2 s (rounded up); 250 ms later half a token is back, still 2 s.
    expect(buckets.take('p', limit, 0)).toEqual({ allowed: true, remaining: 0, resetSeconds: 2 });
    expect(buckets.take('p', limit, 250)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 2 });
    expect(buckets.take('p', limit, 10_000)).toEqual({ allowed: true, remaining: 2, resetSeconds: 1 });
  });

  it('keeps one bucket per key: one partner hammering does not slow another', () => {
    const buckets = new TokenBuckets();
    for (let i = 0; i < 3; i++) buckets.take('a', limit, 0);
    expect(buckets.take('a', limit, 0).allowed).toBe(false);
    expect(buckets.take('b', limit, 0).allowed).toBe(true);
  });

  it('refills up to the burst only, however long the idle time', () => {
    const buckets = new TokenBuckets();
    buckets.take('p', limit, 0);
    const later = 3_600_000;
    expect([1, 2, 3, 4].map(() => buckets.take('p', limit, later).allowed)).toEqual([true, true, true, false]);
  });

  it('stays bounded in memory: idle (refilled) buckets are forgotten when full', () => {
    const buckets = new TokenBuckets(2);
    buckets.take('a', limit, 0);
    buckets.take('b', limit, 0);
    buckets.take('c', limit, 10_000);
    expect(buckets.size).toBe(1);
  });
});
