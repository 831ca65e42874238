/** How a call is retried (PartnerClientOptions.retry). */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4); 1 turns retries off. */
  maxAttempts?: number;
  /** The first backoff, doubled at each retry (default 250 ms). */
  baseDelayMs?: number;
  /** The longest backoff (default 8 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export function retryPolicy(options: RetryOptions | undefined, overrides?: RetryOptions): RetryPolicy {
  return { ...DEFAULT_RETRY, ...options, ...overrides };
}

/**
 * The wait before retry number `retry` (1 for the first): exponential, capped, with "equal jitter" (half
 * fixed, half random) so many clients refused at once do not come back at once, yet never retry at once.
 */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After in milliseconds: whole seconds, or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month (Date.parse alone would read "-1" as a year).
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
