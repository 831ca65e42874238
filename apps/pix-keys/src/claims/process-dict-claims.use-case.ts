import { Inject, Injectable, Logger } from '@nestjs/common';
import { Transaction, UnitOfWork } from '@partner/db';
import { inParallel } from '@partner/platform';
import { retryDelayMs } from '@partner/runtime';
import { errorText } from '@partner/tracing';
import { PixKeysConfig } from '../config/pix-keys.config';
import { DICT_DIRECTORY, DictAnswer, DictClaim, DictDirectory, DictUnavailable } from '../dict/dict-directory';
import { problemText } from '../dict/dict-refusals';
import { stateChanged } from '../pix-keys/pix-key-event';
import { PixKey, PixKeyRepository } from '../pix-keys/pix-key.repository';
import { recordClaimerClaim } from './claimer-claim';
import { claimChanged, claimEventOf } from './pix-key-claim-event';
import { ClaimRole, PixKeyClaim, PixKeyClaimRepository } from './pix-key-claim.repository';
import { dictBatchLease, dictRetryPolicy } from '../dict/dict-queue';

/** DICT's listing may lag its writes by up to 5 s (listClaims' description): each listing starts that much before the last. */
const LISTING_OVERLAP_MS = 10_000;
/** Pages of a listing in one turn (listClaims answers at most 200 a page). */
const PAGES_PER_TURN = 5;
const PAGE = 200;

/**
 * Claims of the partners' keys (docs/api.md, "Claims"; docs/operations/pix-and-dict.md, "Claims"):
 *
 * 1. On its turns (one instance at a time, every DICT_CLAIMS_LIST_MS, a turn per role), lists DICT's claims where
 *    this operator is donor, then those where it is claimer, modified since the last listing, and records each: a
 *    new OPEN one against our key is owed an acknowledgement; a claim of ours whose createClaim answer was lost is
 *    adopted by the key that claims it; a change DICT made (the other side confirmed, cancelled, completed) is
 *    applied, with its events.
 * 2. Sets the default on the donor's claims whose resolution period ended undecided: a portability is cancelled
 *    (the key stays), an ownership confirmed (the key goes), both with DICT's DEFAULT_OPERATION.
 * 3. Sends DICT what is owed (acknowledge; the partner's or the default's confirm or cancel; the claimer's complete,
 *    with the key's RequestId), on the claims' WorkQueue (libs/db) as the keys' queue does, retried with the DICT
 *    backoff and Retry-After; DICT's answer is applied with its events in one transaction. A donor's confirmed claim
 *    releases the key (`canceled`); a claimer's completed claim registers it, a cancelled one fails it `claim_canceled`.
 */
@Injectable()
export class ProcessDictClaimsUseCase {
  private readonly logger = new Logger('DictClaims');

  constructor(
    private readonly config: PixKeysConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly claims: PixKeyClaimRepository,
    private readonly pixKeys: PixKeyRepository,
    @Inject(DICT_DIRECTORY) private readonly dict: DictDirectory,
  ) {}

  async execute(now = new Date()): Promise<void> {
    await this.list('donor', now);
    await this.list('claimer', now);
    await this.claims.defaultsDue(now);
    // An item is one DICT call and its writes (a completion reads its key first): two calls' time covers them,
    // counted from the real clock (the listings above may have taken minutes).
    const due = await this.claims.claimDictWork(now, dictBatchLease(this.config, 2, now), this.config.DICT_BATCH);
    await inParallel(due, this.config.DICT_CONCURRENCY, (c) => this.send(c));
  }

  /** One listing turn of `role`'s claims, if it is this instance's. */
  private async list(role: ClaimRole, now: Date): Promise<void> {
    const turn = await this.claims.takePoll(role, now, new Date(now.getTime() + this.config.DICT_CLAIMS_LIST_MS));
    if (!turn) return;
    let reached = turn.modifiedAfter;
    let after = reached ? new Date(reached.getTime() - LISTING_OVERLAP_MS) : undefined;
    for (let page = 0; page < PAGES_PER_TURN; page++) {
      const answer = await this.dict.listClaims({
        ...(role === 'donor' ? { isDonor: true } : { isClaimer: true }),
        modifiedAfter: after,
        limit: PAGE,
      });
      if (answer.outcome !== 'done') {
        const wait = answer.outcome === 'unavailable' ? (answer.retryAfterMs ?? 0) : 0;
        this.logger.warn(`listClaims not answered: ${answer.outcome === 'refused' ? answer.problem.type : answer.reason}`);
        await this.claims.advancePoll(role, reached, new Date(now.getTime() + Math.max(this.config.DICT_CLAIMS_LIST_MS, wait)));
        return;
      }
      for (const claim of answer.value.claims) {
        const ours = role === 'donor' ? claim.donorParticipant : claim.claimerParticipant;
        if (ours === this.config.DICT_ISPB) await this.record(claim, role);
        if (!reached || claim.lastModified > reached) reached = claim.lastModified;
      }
      if (!answer.value.hasMore || answer.value.claims.length === 0) break;
      after = answer.value.claims[answer.value.claims.length - 1].lastModified;
    }
    await this.claims.advancePoll(role, reached, new Date(now.getTime() + this.config.DICT_CLAIMS_LIST_MS));
  }

  /** A claim as DICT lists it: recorded when new (on the key it claims), else applied if DICT moved it. */
  private async record(claim: DictClaim, role: ClaimRole): Promise<void> {
    const known = await this.claims.findForDict(claim.id);
    if (known) {
      await this.apply(known, claim);
      return;
    }
    if (role === 'claimer') return this.adopt(claim);
    // Ended before it was seen (the claimer cancelled an OPEN claim): nothing for the partner to hear of.
    if (claim.status !== 'OPEN' && claim.status !== 'WAITING_RESOLUTION') return;
    const key = await this.pixKeys.findHeld(claim.key);
    if (!key) {
      this.logger.error(`DICT claim ${claim.id} of key ${claim.key.slice(0, 3)}… names this operator donor, but no key here holds it`);
      return;
    }
    await this.unitOfWork.run(async (tx) => {
      const recorded = await this.claims.recordNew(
        tx,
        key.partnerId,
        key.id,
        'donor',
        claim,
        claim.status === 'OPEN' ? 'acknowledge' : null,
      );
      if (recorded?.status === 'waiting_resolution') tx.emit(claimChanged(key, recorded, 'claim_received', claim.lastModified));
    });
  }

  /** A claim of ours DICT lists before its row exists (createClaim's answer was lost): it is the claiming key's. */
  private async adopt(claim: DictClaim): Promise<void> {
    if (claim.status === 'CANCELLED' || claim.status === 'COMPLETED') return;
    const key = await this.pixKeys.findClaiming(claim.key);
    if (!key) {
      this.logger.error(`DICT claim ${claim.id} of key ${claim.key.slice(0, 3)}… names this operator claimer, but no key here claims it`);
      return;
    }
    await this.unitOfWork.run((tx) => recordClaimerClaim(tx, this.claims, this.pixKeys, key, claim));
  }

  /** DICT's claim applied to what is kept, in one transaction with its events: the claim's, and the key's when it moves. */
  private async apply(known: PixKeyClaim, claim: DictClaim): Promise<void> {
    const now = new Date();
    await this.unitOfWork.run(async (tx) => {
      const applied = await this.claims.applyDict(tx, known, claim, now);
      if (!applied || applied.statusBefore === applied.claim.status) return;
      const kind = claimEventOf(applied.claim);
      let key = await this.pixKeys.findById(tx, known.partnerId, known.pixKeyId);
      if (!key) throw new Error(`claim ${known.id}: key ${known.pixKeyId} is gone`);
      const moved = await this.keyMove(tx, applied.claim, key, claim, now);
      if (moved) {
        key = moved;
        tx.emit(stateChanged(moved));
      }
      // A claimed key whose deletion was asked for meanwhile goes at once, as a registered one does (the DICT queue).
      const deleting = moved?.state === 'registered' && moved.deletionRequestedAt ? await this.pixKeys.deleteMarked(tx, moved, now) : null;
      if (deleting) tx.emit(stateChanged(deleting));
      if (kind) tx.emit(claimChanged(key, applied.claim, kind, claim.lastModified));
    });
  }

  /**
   * What a claim's new status does to its key: a donor's confirmed claim releases it (DICT removed the entry); a
   * claimer's completed claim registers it (DICT created our entry), a cancelled one fails it `claim_canceled`.
   */
  private async keyMove(tx: Transaction, claim: PixKeyClaim, key: PixKey, dict: DictClaim, now: Date): Promise<PixKey | null> {
    if (claim.role === 'donor') return claim.status === 'confirmed' ? this.pixKeys.release(tx, key.partnerId, key.id, now) : null;
    if (claim.status === 'completed') return this.pixKeys.finish(tx, key, 'pending', 'registered', null, now, dict.key);
    if (claim.status === 'cancelled') return this.pixKeys.finish(tx, key, 'pending', 'failed', 'claim_canceled', now);
    return null;
  }

  /** The call owed DICT for `claim`, and its answer applied. */
  private async send(claim: PixKeyClaim): Promise<void> {
    try {
      const reason = claim.dictActionReason ?? 'USER_REQUESTED';
      let answer: DictAnswer<DictClaim>;
      if (claim.dictAction === 'acknowledge') answer = await this.dict.acknowledgeClaim(claim.id);
      else if (claim.dictAction === 'complete') answer = await this.dict.completeClaim(claim.id, await this.requestIdOf(claim));
      else if (claim.dictAction === 'confirm') answer = await this.dict.confirmClaim(claim.id, reason);
      else answer = await this.dict.cancelClaim(claim.id, reason);
      if (answer.outcome === 'done') return await this.apply(claim, answer.value);
      if (answer.outcome === 'unavailable') return await this.retry(claim, answer.reason, answer);
      // Refused: the claim moved at DICT meanwhile (the claimer cancelled it: the next listing applies that and drops
      // the call), or a problem of the operator's. Kept and retried; logged for an operator.
      const what = problemText(answer.problem);
      this.logger.error(`claim ${claim.id}: ${claim.dictAction} refused, retried later: ${what}`);
      await this.retry(claim, what);
    } catch (error) {
      // A failure of ours: the claim stays leased and is taken again after its lease.
      this.logger.error(`claim ${claim.id}: ${claim.dictAction} interrupted: ${errorText(error)}`);
    }
  }

  /** The claiming key's RequestId: completeClaim creates our entry with it, as createEntry would have (its CID). */
  private async requestIdOf(claim: PixKeyClaim): Promise<string> {
    const key = await this.unitOfWork.run((tx) => this.pixKeys.findById(tx, claim.partnerId, claim.pixKeyId));
    if (!key) throw new Error(`claim ${claim.id}: key ${claim.pixKeyId} is gone`);
    return key.dictRequestId;
  }

  private async retry(claim: PixKeyClaim, error: string, unavailable?: DictUnavailable): Promise<void> {
    const wait = retryDelayMs(claim.dictAttempts, dictRetryPolicy(this.config), unavailable?.retryAfterMs);
    await this.claims.retryLater(claim, new Date(Date.now() + wait), error);
  }
}
