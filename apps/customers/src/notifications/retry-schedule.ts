/** The notifier's retry settings (CustomersConfig NOTIFY_*). */
export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

/**
 * What follows a failed attempt, the `attempts`-th (from 1): `failed` once NOTIFY_MAX_ATTEMPTS attempts
 * failed, else another attempt after an exponential backoff: base, 2 × base, 4 × base... capped at
 * maxMs. With the defaults (1 min, 1 h, 8 attempts): 1, 2, 4, 8, 16, 32 and 60 minutes, about two hours in all.
 */
export function afterFailure(attempts: number, policy: RetryPolicy): { retryInMs: number } | 'failed' {
  if (attempts >= policy.maxAttempts) return 'failed';
  return { retryInMs: Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1)) };
}
