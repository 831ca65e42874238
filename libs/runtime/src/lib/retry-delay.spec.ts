import { retryDelayMs } from './retry-delay';

describe('retryDelayMs', () => {
  const policy = { baseMs: 1_000, maxMs: 60_000 };

  it('doubles per attempt from the base, within the upper half of its ceiling', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, policy, 0, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, policy, 0, () => 0))).toEqual([500, 1_000, 2_000, 4_000]);
  });

  it('stops at the longest wait, however many attempts failed (no overflow)', () => {
    expect(retryDelayMs(7, policy, 0, () => 1)).toBe(60_000);
    expect(retryDelayMs(10_000, policy, 0, () => 1)).toBe(60_000);
    expect(retryDelayMs(10_000, policy, 0, () => 0)).toBe(30_000);
  });

  it('never comes back sooner than the counterparty asked', () => {
    expect(retryDelayMs(1, policy, 90_000, () => 0)).toBe(90_000);
    expect(retryDelayMs(1, policy, 100, () => 0)).toBe(500);
  });

  it('treats an attempt 0 (never tried) as the first', () => {
    expect(retryDelayMs(0, policy, 0, () => 1)).toBe(1_000);
  });
});
