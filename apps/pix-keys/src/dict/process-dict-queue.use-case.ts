import { Inject, Injectable, Logger } from '@nestjs/common';
import { isDictName, PixKeyFailureReason } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { retryDelayMs } from '@partner/runtime';
import { errorText } from '@partner/tracing';
import { PixKeysConfig } from '../config/pix-keys.config';
import { stateChanged } from '../pix-keys/pix-key-event';
import { PixKey, PixKeyRepository } from '../pix-keys/pix-key.repository';
import { recordClaimerClaim } from '../claims/claimer-claim';
import { PixKeyClaimRepository } from '../claims/pix-key-claim.repository';
import { DICT_DIRECTORY, DictDirectory, DictEntry, DictUnavailable } from './dict-directory';
import { dictEntryOf } from './dict-entry';
import { DictMetrics } from './dict-metrics';
import { deletionDone, problemText, registrationVerdict } from './dict-refusals';
import { inParallel } from '@partner/platform';
import { dictBatchLease, dictRetryPolicy } from './dict-queue';

/** What became of one key in a run. */
export type QueueOutcome = 'registered' | 'failed' | 'canceled' | 'retry' | 'moved_elsewhere' | 'claiming';

/**
 * The DICT queue (docs/architecture.md, "Services"): the keys themselves are the queue, a WorkQueue (libs/db),
 * which says what claim, lease and at least once mean. A `pending` key is a registration to send to DICT
 * (createEntry), a `deleting` key a deletion (deleteEntry). Each run claims the keys whose call is due
 * (PixKeyRepository.claimDictWork), calls DICT for each, a few at a time, and records what DICT answered:
 *
 * - registration done → `registered` (then `deleting` at once when its deletion was asked for meanwhile);
 * - deletion done, or DICT holds no such entry (NotFound) → `canceled`;
 * - a final refusal of a registration → `failed` with the partner-facing reason (dict-refusals.ts); before any
 *   call, a key whose user had no holder's name, no account or a name DICT does not take fails the same way;
 * - no answer to rely on (timeout, 5xx, 429, untrusted answer), or a refusal the operator must fix
 *   (Forbidden, RequestSignatureInvalid): the same call again after a backoff (retryDelayMs with
 *   dictRetryPolicy; never before DICT's Retry-After), with the same RequestId, so DICT creates the entry once;
 * - a registration refused with an answer whose signature does not verify, once its attempts reach
 *   DICT_UNTRUSTED_REFUSAL_ATTEMPTS → `failed` `dict_rejected` (DICT did not create it: it refused).
 *
 * Each move is one transaction with its event (the outbox). A call made again (at least once) is harmless: DICT's
 * idempotency by the RequestId. What is stored or logged of a failure is masked (errorText, problemText).
 */
@Injectable()
export class ProcessDictQueueUseCase {
  private readonly logger = new Logger('DictQueue');

  constructor(
    private readonly config: PixKeysConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly pixKeys: PixKeyRepository,
    @Inject(DICT_DIRECTORY) private readonly dict: DictDirectory,
    private readonly metrics: DictMetrics,
    private readonly claims: PixKeyClaimRepository,
  ) {}

  /** One run: every key due now, batch after batch while batches come full; returns how many keys were worked on. */
  async execute(now = () => new Date()): Promise<number> {
    let worked = 0;
    for (;;) {
      const started = now();
      const keys = await this.pixKeys.claimDictWork(started, dictBatchLease(this.config, 1, started), this.config.DICT_BATCH);
      await inParallel(keys, this.config.DICT_CONCURRENCY, (k) => this.process(k));
      worked += keys.length;
      if (keys.length < this.config.DICT_BATCH) break;
    }
    this.metrics.waiting.set(await this.pixKeys.retrying());
    return worked;
  }

  /** The call a claimed key is due for, and the move its answer makes. */
  async process(key: PixKey): Promise<QueueOutcome> {
    try {
      return key.state === 'pending' ? await this.register(key) : await this.delete(key);
    } catch (error) {
      // A failure of ours (the database, a bug): the key stays leased and is taken again after its lease.
      this.logger.error(`Pix key ${key.id}: ${key.state === 'pending' ? 'registration' : 'deletion'} interrupted: ${errorText(error)}`);
      return 'retry';
    }
  }

  private async register(key: PixKey): Promise<QueueOutcome> {
    const problem = this.missing(key);
    if (problem) return this.fail(key, problem.reason, problem.detail);
    const entry = dictEntryOf(key);
    // missing() has made sure of the holder and the account.
    if (!entry) throw new Error(`Pix key ${key.id} has no holder`);
    const answer = await this.dict.createEntry({ entry, requestId: key.dictRequestId, reason: 'USER_REQUESTED' });
    if (answer.outcome === 'done') return this.registered(key, answer.value.key);
    if (answer.outcome === 'unavailable' && answer.untrustedRefusal && key.dictAttempts >= this.config.DICT_UNTRUSTED_REFUSAL_ATTEMPTS) {
      this.logger.error(
        `Pix key ${key.id}: ${answer.reason}: check DICT_RESPONSE_SIGNING_CERT_FILE (docs/operations/pix-and-dict.md, "DICT")`,
      );
      return this.fail(key, 'dict_rejected', `refused ${key.dictAttempts} times, the answers unsigned or not DICT's: ${answer.reason}`);
    }
    if (answer.outcome === 'unavailable') return this.retry(key, answer.reason, answer);
    const verdict = registrationVerdict(answer.problem);
    const what = problemText(answer.problem);
    // The same person's key at another institution, and the partner asked for its portability: claimed, not failed.
    if (key.claimPortability && answer.problem.type === 'EntryKeyInCustodyOfDifferentParticipant')
      return this.claimPortability(key, entry, what);
    if (verdict.final) return this.fail(key, verdict.reason, what);
    if (verdict.operatorProblem)
      this.logger.error(`Pix key ${key.id}: ${what}: check DICT_ISPB and the DICT certificates (docs/operations/pix-and-dict.md, "DICT")`);
    return this.retry(key, what);
  }

  /**
   * createClaim (PORTABILITY) for a CPF held elsewhere: recorded with the key parked until the claim ends (the claims
   * worker completes or fails it). createClaim has no request id: a ClaimAlreadyExistsForKey after a lost answer is
   * ours, which the claims listing adopts; another's ends some day: both are tried again later.
   */
  private async claimPortability(key: PixKey, entry: DictEntry, refusal: string): Promise<QueueOutcome> {
    const answer = await this.dict.createClaim({
      type: 'PORTABILITY',
      key: entry.key ?? key.document,
      keyType: 'CPF',
      claimerAccount: entry.account,
      claimer: entry.owner,
    });
    if (answer.outcome === 'done') {
      await this.unitOfWork.run((tx) => recordClaimerClaim(tx, this.claims, this.pixKeys, key, answer.value));
      return 'claiming';
    }
    if (answer.outcome === 'unavailable') return this.retry(key, answer.reason, answer);
    const what = `${refusal}; createClaim: DICT ${answer.problem.status} ${answer.problem.type}`;
    if (answer.problem.type === 'ClaimAlreadyExistsForKey') return this.retry(key, what);
    return this.fail(key, 'key_held_elsewhere', what);
  }

  private async delete(key: PixKey): Promise<QueueOutcome> {
    // A deleting key was registered, so its value is known (an EVP's since DICT answered; CHECK pix_keys_key_is_document).
    if (key.key === null) throw new Error(`Pix key ${key.id} is deleting without a value`);
    const answer = await this.dict.deleteEntry(key.key, 'USER_REQUESTED');
    if (answer.outcome === 'done' || (answer.outcome === 'refused' && deletionDone(answer.problem))) {
      const moved = await this.unitOfWork.run(async (tx) => {
        const canceled = await this.pixKeys.finish(tx, key, 'deleting', 'canceled', null, new Date());
        if (canceled) tx.emit(stateChanged(canceled));
        return canceled;
      });
      if (!moved) return 'moved_elsewhere';
      this.metrics.finished.inc({ state: 'canceled', reason: '' });
      return 'canceled';
    }
    if (answer.outcome === 'unavailable') return this.retry(key, answer.reason, answer);
    const what = problemText(answer.problem);
    this.logger.error(`Pix key ${key.id}: deletion refused, retried later: ${what}`);
    return this.retry(key, what);
  }

  /** Why the key cannot be sent to DICT at all, from what its user had when it was asked for. */
  private missing(key: PixKey): { reason: PixKeyFailureReason; detail: string } | undefined {
    if (key.holderName === null) return { reason: 'holder_name_missing', detail: 'the user had no holder name when the key was asked for' };
    if (key.account === null) return { reason: 'account_missing', detail: 'the user had no payment account when the key was asked for' };
    if (!isDictName(key.holderName))
      return { reason: 'holder_name_invalid', detail: "the holder's name is not one DICT takes (letters, spaces, ' and -)" };
    if (key.account.ispb !== this.config.DICT_ISPB) {
      return {
        reason: 'dict_rejected',
        detail: `the account is at ISPB ${key.account.ispb}, this operator is ${this.config.DICT_ISPB} (DICT_ISPB)`,
      };
    }
    return undefined;
  }

  /** `dictKey`: the key as DICT registered it (an EVP key's value is DICT's, learnt here). */
  private async registered(key: PixKey, dictKey: string): Promise<QueueOutcome> {
    if (key.key !== null && dictKey !== key.key) throw new Error(`DICT registered key ${dictKey} for Pix key ${key.id}, not ${key.key}`);
    const moved = await this.unitOfWork.run(async (tx) => {
      const now = new Date();
      const registered = await this.pixKeys.finish(tx, key, 'pending', 'registered', null, now, dictKey);
      if (!registered) return null;
      tx.emit(stateChanged(registered));
      // Its deletion was asked for while it was pending: it goes at once (its deletion is due now).
      const deleting = registered.deletionRequestedAt ? await this.pixKeys.deleteMarked(tx, registered, now) : null;
      if (deleting) tx.emit(stateChanged(deleting));
      return registered;
    });
    if (!moved) return 'moved_elsewhere';
    this.metrics.finished.inc({ state: 'registered', reason: '' });
    return 'registered';
  }

  private async fail(key: PixKey, reason: PixKeyFailureReason, detail: string): Promise<QueueOutcome> {
    const moved = await this.unitOfWork.run(async (tx) => {
      const failed = await this.pixKeys.finish(tx, key, 'pending', 'failed', reason, new Date());
      if (failed) tx.emit(stateChanged(failed));
      return failed;
    });
    if (!moved) return 'moved_elsewhere';
    this.logger.log(`Pix key ${key.id} failed: ${reason} (${errorText(detail)})`);
    this.metrics.finished.inc({ state: 'failed', reason });
    return 'failed';
  }

  private async retry(key: PixKey, error: string, unavailable?: DictUnavailable): Promise<QueueOutcome> {
    const wait = retryDelayMs(key.dictAttempts, dictRetryPolicy(this.config), unavailable?.retryAfterMs);
    await this.pixKeys.retryLater(key, new Date(Date.now() + wait), error);
    return 'retry';
  }
}
