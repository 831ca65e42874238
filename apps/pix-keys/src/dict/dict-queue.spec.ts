import { dictBatchLease } from './dict-queue';

describe('dictBatchLease', () => {
  const config = { DICT_BATCH: 50, DICT_CONCURRENCY: 8, DICT_TIMEOUT_MS: 10_000 };
  // A claim time ahead of the real clock: the lease counts from it.
  const at = new Date(Date.now() + 86_400_000);
  const leaseMs = (calls: number, c = config) => dictBatchLease(c, calls, at).getTime() - at.getTime();

  it('covers every round of a batch at the worst: 50 items 8 at a time are 7 rounds of calls that may each time out', () => {
    expect(leaseMs(1)).toBe((7 * 1 + 1) * 10_000 + 5_000);
    // Claims and MED cases may make two DICT calls an item (a refused close asks whether the case was cancelled).
    expect(leaseMs(2)).toBe((7 * 2 + 1) * 10_000 + 5_000);
    expect(leaseMs(2)).toBeGreaterThan(7 * 2 * 10_000);
  });

  it('grows with the batch and the timeout, shrinks with the concurrency', () => {
    expect(leaseMs(1, { ...config, DICT_BATCH: 100 })).toBeGreaterThan(leaseMs(1));
    expect(leaseMs(1, { ...config, DICT_TIMEOUT_MS: 20_000 })).toBeGreaterThan(leaseMs(1));
    expect(leaseMs(1, { ...config, DICT_CONCURRENCY: 50 })).toBe(2 * 10_000 + 5_000);
  });

  it('never counts from before the real clock: a claim time of the past leases from now', () => {
    const before = Date.now();
    const lease = dictBatchLease(config, 1, new Date('2026-01-01T00:00:00Z')).getTime();
    expect(lease).toBeGreaterThanOrEqual(before + 85_000);
    expect(lease).toBeLessThanOrEqual(Date.now() + 85_000);
  });
});
