import { Inject, Injectable, Logger } from '@nestjs/common';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PixKey, PixKeyRepository } from '../pix-keys/pix-key.repository';
import { DICT_DIRECTORY, DictAnswer, DictDirectory, DictRegisteredEntry } from './dict-directory';
import { dictEntryOf, entryCid } from './dict-entry';
import { DictMetrics } from './dict-metrics';
import { inParallel } from '@partner/platform';

export interface ReconciliationRun {
  checked: number;
  matched: number;
  mismatched: number;
  /** Reads DICT did not answer (retried in a later run, when the key's check is due again). */
  unanswered: number;
}

/**
 * The reconciliation (docs/operations/pix-and-dict.md, "Reconciliation"): every DICT_RECONCILE_INTERVAL_MS, up to
 * DICT_RECONCILE_BATCH registered keys not read back for DICT_RECONCILE_EVERY_MS (never-checked ones
 * first) are read from DICT by their CID (getEntryByCid, the participant's CIDS_ENTRIES_READ budget; getEntry
 * refuses one's own entries and spends the user's anti-scan budget) and compared with what was registered: the
 * key, the participant, the account, the owner's CPF and name. No active entry of that CID (`entry_missing`:
 * removed or changed at DICT, by a claim completed elsewhere, or never there), a different one
 * (`entry_differs: <fields>`) or a key kept without its holder, whose CID cannot be known
 * (`entry_unverifiable`), is recorded on the key (`dict_mismatch`), logged as an error and counted in
 * `dict_reconciliation_mismatches_total` once; nothing is mended automatically and the partner's key is
 * not moved: a finding is for an operator. A 429 stops further reads (this run's and the next ones') until its
 * Retry-After; the keys not read are read in a later run.
 */
@Injectable()
export class ReconcileDictUseCase {
  private readonly logger = new Logger('DictReconciliation');
  /** No read before this (a 429's Retry-After): DICT's bucket refills first. */
  private pausedUntil = 0;

  constructor(
    private readonly config: PixKeysConfig,
    private readonly pixKeys: PixKeyRepository,
    @Inject(DICT_DIRECTORY) private readonly dict: DictDirectory,
    private readonly metrics: DictMetrics,
  ) {}

  async execute(now = new Date()): Promise<ReconciliationRun> {
    const keys = await this.pixKeys.claimReconciliation(
      new Date(now.getTime() - this.config.DICT_RECONCILE_EVERY_MS),
      this.config.DICT_RECONCILE_BATCH,
      now,
    );
    const run: ReconciliationRun = { checked: 0, matched: 0, mismatched: 0, unanswered: 0 };
    await inParallel(keys, this.config.DICT_CONCURRENCY, async (key) => {
      const entry = dictEntryOf(key);
      let answer: DictAnswer<DictRegisteredEntry> | undefined;
      // A registered key's value is always known (an EVP's was stored with its registration); its CID needs it.
      const known = entry?.key === undefined ? null : { ...entry, key: entry.key };
      if (known && Date.now() >= this.pausedUntil) answer = await this.dict.getEntryByCid(entryCid(known, key.dictRequestId));
      let mismatch: string | null;
      if (!known) mismatch = 'entry_unverifiable';
      else if (answer?.outcome === 'done') mismatch = differences(key, answer.value, this.config.DICT_ISPB);
      else if (answer?.outcome === 'refused' && answer.problem.type === 'NotFound') mismatch = 'entry_missing';
      else {
        run.unanswered++;
        if (answer?.outcome === 'unavailable' && answer.retryAfterMs !== undefined)
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + answer.retryAfterMs);
        if (answer)
          this.logger.warn(
            `Pix key ${key.id}: read back not answered: ${answer.outcome === 'refused' ? answer.problem.type : answer.reason}`,
          );
        return;
      }
      run.checked++;
      if (mismatch === null) run.matched++;
      else run.mismatched++;
      if (mismatch !== key.dictMismatch) {
        await this.pixKeys.recordMismatch(key, mismatch);
        if (mismatch !== null) {
          this.metrics.mismatches.inc({ kind: mismatch.split(':')[0] });
          this.logger.error(`Pix key ${key.id} (partner ${key.partnerId}) is registered here but DICT disagrees: ${mismatch}`);
        }
      }
    });
    return run;
  }
}

/** What differs between the key as registered and DICT's entry; null when nothing does. */
export function differences(key: PixKey, entry: DictRegisteredEntry, ispb: string): string | null {
  const fields: string[] = [];
  if (entry.key !== key.key) fields.push('key');
  if (entry.account.participant !== ispb) fields.push('participant');
  if (entry.owner.taxIdNumber !== key.document) fields.push('owner');
  // Keys registered before the holder and account were kept have nothing more to compare.
  if (key.account) {
    if (entry.account.branch !== key.account.branch) fields.push('branch');
    if (entry.account.accountNumber !== key.account.number) fields.push('account_number');
    if (entry.account.accountType !== key.account.type) fields.push('account_type');
  }
  if (key.holderName !== null && entry.owner.name !== key.holderName) fields.push('name');
  return fields.length === 0 ? null : `entry_differs: ${fields.join(', ')}`;
}
