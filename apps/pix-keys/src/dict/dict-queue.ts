import { RetryPolicy } from '@partner/runtime';
import { PixKeysConfig } from '../config/pix-keys.config';

/** The DICT queues' columns (libs/db WorkQueue), on `pix_keys` and on `claims` alike. */
export const DICT_QUEUE_COLUMNS = { attempts: 'dict_attempts', dueAt: 'dict_next_attempt_at', lastError: 'dict_last_error' } as const;

/** The backoff of every call to DICT the queues retry (retryDelayMs): DICT_RETRY_BASE_MS doubled per attempt, at most DICT_RETRY_MAX_MS. */
export const dictRetryPolicy = (config: Pick<PixKeysConfig, 'DICT_RETRY_BASE_MS' | 'DICT_RETRY_MAX_MS'>): RetryPolicy => ({
  baseMs: config.DICT_RETRY_BASE_MS,
  maxMs: config.DICT_RETRY_MAX_MS,
});

/**
 * Until when a batch of DICT work claimed now is this instance's: every round of the batch (DICT_BATCH items,
 * DICT_CONCURRENCY at a time), each item `callsPerItem` DICT calls of up to DICT_TIMEOUT_MS, one round more and
 * 5 s to spare. Counted from the claim itself, not from the start of the run (a listing turn before it may
 * have taken its own minutes), and never from before the real clock (a run may be given a `now` of the past).
 * A lease shorter than the batch lets another instance claim, and send again, what this one is still sending.
 */
export function dictBatchLease(
  config: Pick<PixKeysConfig, 'DICT_BATCH' | 'DICT_CONCURRENCY' | 'DICT_TIMEOUT_MS'>,
  callsPerItem: number,
  claimedAt: Date,
): Date {
  const rounds = Math.ceil(config.DICT_BATCH / config.DICT_CONCURRENCY);
  return new Date(Math.max(claimedAt.getTime(), Date.now()) + (rounds * callsPerItem + 1) * config.DICT_TIMEOUT_MS + 5_000);
}
