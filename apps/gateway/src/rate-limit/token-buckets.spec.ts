import { TokenBuckets } from './token-buckets';

describe('TokenBuckets', () => {
  const limit = { perSecond: 2, burst: 3 };

  it('allows a burst, then refuses with the whole seconds until a token is back', () => {
    const buckets = new TokenBuckets();
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => buckets.take('p', limit, t0).allowed)).toEqual([true, true, true]);
    expect(buckets.take('p', limit, t0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Half a second at 2/s refills one token.
    expect(buckets.take('p', limit, t0 + 500).allowed).toBe(true);
    expect(buckets.take('p', limit, t0 + 500).allowed).toBe(false);
  });

  it('never answers a Retry-After below one second, and rounds a slow refill up', () => {
    const buckets = new TokenBuckets();
    const slow = { perSecond: 0.25, burst: 1 };
    expect(buckets.take('p', slow, 0).allowed).toBe(true);
    expect(buckets.take('p', slow, 0)).toEqual({ allowed: false, retryAfterSeconds: 4 });
    expect(buckets.take('p', slow, 3_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(buckets.take('p', slow, 4_000).allowed).toBe(true);
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
