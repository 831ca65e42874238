import { afterFailure } from './retry-schedule';

describe('afterFailure: the retry schedule', () => {
  const policy = { maxAttempts: 8, baseMs: 60_000, maxMs: 3_600_000 };
  const minutes = (random: () => number) =>
    [1, 2, 3, 4, 5, 6, 7].map((attempts) => {
      const next = afterFailure(attempts, policy, random);
      return next === 'failed' ? next : next.retryInMs / 60_000;
    });

  it('doubles the wait after each failed attempt, capped and jittered within its upper half, then gives up after the last', () => {
    expect(minutes(() => 1)).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(minutes(() => 0)).toEqual([0.5, 1, 2, 4, 8, 16, 30]);
    expect(afterFailure(8, policy)).toBe('failed');
    expect(afterFailure(9, policy)).toBe('failed');
  });

  it('fails at once when only one attempt is allowed', () => {
    expect(afterFailure(1, { maxAttempts: 1, baseMs: 1_000, maxMs: 1_000 })).toBe('failed');
  });
});
