import { afterFailure } from './retry-schedule';

describe('afterFailure: the retry schedule', () => {
  it('doubles the wait after each failed attempt, capped, then gives up after the last attempt', () => {
    const policy = { maxAttempts: 8, baseMs: 60_000, maxMs: 3_600_000 };
    const minutes = [1, 2, 3, 4, 5, 6, 7].map((attempts) => {
      const next = afterFailure(attempts, policy);
      return next === 'failed' ? next : next.retryInMs / 60_000;
    });
    expect(minutes).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(afterFailure(8, policy)).toBe('failed');
    expect(afterFailure(9, policy)).toBe('failed');
  });

  it('fails at once when only one attempt is allowed', () => {
    expect(afterFailure(1, { maxAttempts: 1, baseMs: 1_000, maxMs: 1_000 })).toBe('failed');
  });

  it('stays capped for very many attempts (no overflow to Infinity)', () => {
    expect(afterFailure(40, { maxAttempts: 50, baseMs: 1_000, maxMs: 5_000 })).toEqual({ retryInMs: 5_000 });
  });
});
