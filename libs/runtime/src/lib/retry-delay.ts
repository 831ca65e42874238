/** How a queue's failed attempts are spaced: the first wait, and the longest. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before the next attempt of background work (libs/db WorkQueue) after the `attempt`-th failed (from 1):
 * base × 2^(attempt − 1), at most maxMs, its upper half jittered so instances that failed together do not all
 * come back together; never sooner than the counterparty asked (`retryAfterMs`, its Retry-After). The one
 * backoff of the services' queues: DICT calls, owner notifications, Pix refunds.
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy, retryAfterMs = 0, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.max(Math.round(ceiling / 2 + (random() * ceiling) / 2), retryAfterMs);
}
