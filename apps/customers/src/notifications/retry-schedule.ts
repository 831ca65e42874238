import { RetryPolicy, retryDelayMs } from '@partner/runtime';

/** The notifier's retry settings (CustomersConfig NOTIFY_*): the queues' backoff, and how many attempts in all. */
export interface NotifierRetryPolicy extends RetryPolicy {
  maxAttempts: number;
}

/**
 * What follows a failed attempt, the `attempts`-th (from 1): `failed` once NOTIFY_MAX_ATTEMPTS attempts failed,
 * else another attempt after the queues' backoff (retryDelayMs: base, 2 × base, 4 × base... capped at maxMs,
 * the upper half jittered). With the defaults (1 min, 1 h, 8 attempts): at most 1, 2, 4, 8, 16, 32 and 60
 * minutes, at least half of each: one to two hours in all.
 */
export function afterFailure(attempts: number, policy: NotifierRetryPolicy, random?: () => number): { retryInMs: number } | 'failed' {
  if (attempts >= policy.maxAttempts) return 'failed';
  return { retryInMs: retryDelayMs(attempts, policy, 0, random) };
}
