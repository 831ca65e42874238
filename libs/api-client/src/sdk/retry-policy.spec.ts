import { backoffMs, DEFAULT_RETRY, parseRetryAfter, retryPolicy } from './retry-policy';

describe('backoffMs', () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000 });

  it('doubles each retry, between half and all of the step (equal jitter), capped at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(policy, retry, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(policy, retry, () => 1))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('spreads clients refused at once', () => {
    const waits = new Set(Array.from({ length: 50 }, () => backoffMs(policy, 3)));
    expect(waits.size).toBeGreaterThan(10);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...waits)).toBeLessThanOrEqual(400);
  });

  it('defaults: 4 attempts from 250 ms to 8 s, Retry-After waited up to 60 s', () => {
    expect(retryPolicy(undefined)).toEqual(DEFAULT_RETRY);
    expect(DEFAULT_RETRY).toEqual({ maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 });
    expect(retryPolicy({ maxAttempts: 2 }, { maxAttempts: 1 }).maxAttempts).toBe(1);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads whole seconds and HTTP dates, in milliseconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
  });

  it('a date already past is no wait; an absent or unreadable value is none', () => {
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect([parseRetryAfter(null, now), parseRetryAfter('', now), parseRetryAfter('soon', now), parseRetryAfter('-1', now)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
