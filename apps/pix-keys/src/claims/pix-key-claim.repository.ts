import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, ClaimStatus, PartnerId } from '@partner/contracts';
import { Database, statement, Transaction, WorkQueue } from '@partner/db';
import { errorText } from '@partner/tracing';
import { DictClaim } from '../dict/dict-directory';
import { DICT_QUEUE_COLUMNS } from '../dict/dict-queue';

/** What this operator must still send DICT about a claim. */
export type ClaimAction = 'acknowledge' | 'confirm' | 'cancel' | 'complete';
/** This operator's side of a claim. */
export type ClaimRole = 'donor' | 'claimer';
/** DICT's reasons, as sent (ClaimOperationReason). */
export type ClaimActionReason = 'USER_REQUESTED' | 'ACCOUNT_CLOSURE' | 'FRAUD' | 'DEFAULT_OPERATION';

export interface PixKeyClaim {
  id: string;
  partnerId: PartnerId;
  pixKeyId: string;
  role: ClaimRole;
  type: 'portability' | 'ownership';
  status: ClaimStatus;
  resolutionPeriodEnd: Date;
  completionPeriodEnd: Date | null;
  dictLastModified: Date;
  claimerParticipant: string;
  confirmReason: string | null;
  cancelReason: string | null;
  cancelledBy: string | null;
  dictAction: ClaimAction | null;
  dictActionReason: ClaimActionReason | null;
  decidedBy: 'partner' | 'default' | null;
  dictAttempts: number;
  dictNextAttemptAt: Date | null;
  dictLastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ClaimRow {
  id: string;
  partner_id: string;
  pix_key_id: string;
  role: ClaimRole;
  type: 'portability' | 'ownership';
  status: ClaimStatus;
  resolution_period_end: Date;
  completion_period_end: Date | null;
  dict_last_modified: Date;
  claimer_participant: string;
  confirm_reason: string | null;
  cancel_reason: string | null;
  cancelled_by: string | null;
  dict_action: ClaimAction | null;
  dict_action_reason: ClaimActionReason | null;
  decided_by: 'partner' | 'default' | null;
  dict_attempts: number;
  dict_next_attempt_at: Date | null;
  dict_last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns' CHECK constraints hold the enumerations; the partner id is one a PartnerId was stored as. */
const toClaim = (r: ClaimRow): PixKeyClaim => ({
  id: r.id,
  partnerId: authenticatedPartnerId(r.partner_id),
  pixKeyId: r.pix_key_id,
  role: r.role,
  type: r.type,
  status: r.status,
  resolutionPeriodEnd: r.resolution_period_end,
  completionPeriodEnd: r.completion_period_end,
  dictLastModified: r.dict_last_modified,
  claimerParticipant: r.claimer_participant,
  confirmReason: r.confirm_reason,
  cancelReason: r.cancel_reason,
  cancelledBy: r.cancelled_by,
  dictAction: r.dict_action,
  dictActionReason: r.dict_action_reason,
  decidedBy: r.decided_by,
  dictAttempts: r.dict_attempts,
  dictNextAttemptAt: r.dict_next_attempt_at,
  dictLastError: r.dict_last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const statusOf = (c: DictClaim) => c.status.toLowerCase() as ClaimStatus;

/** The claims' DICT queue (a WorkQueue, libs/db, as the keys'): the claims that owe DICT a call, oldest due first. */
const DICT_QUEUE = new WorkQueue({
  name: 'claims_dict',
  table: 'claims',
  workable: 'dict_action IS NOT NULL',
  columns: DICT_QUEUE_COLUMNS,
  tieBreak: 'updated_at',
});

/** The listing's turn, if it is this caller's: the lease moved on to `$3` and where the last listing reached. */
const TAKE_POLL = statement(
  'claims_take_poll',
  `UPDATE dict_claim_polls SET next_poll_at = $3 WHERE role = $1 AND next_poll_at <= $2 RETURNING modified_after`,
);

/** Where the listing reached (never backwards), and when the next one is due. */
const ADVANCE_POLL = statement(
  'claims_advance_poll',
  `UPDATE dict_claim_polls SET modified_after = GREATEST(modified_after, $2), next_poll_at = $3 WHERE role = $1`,
);

const FIND = statement('claims_find', `SELECT * FROM claims WHERE id = $1`);

/** A claim read from DICT for the first time, on the key it claims (the donor's key here); nothing if known already. */
const RECORD_NEW = statement(
  'claims_record_new',
  `INSERT INTO claims (id, partner_id, pix_key_id, role, type, status, resolution_period_end, completion_period_end,
                       dict_last_modified, claimer_participant, confirm_reason, cancel_reason, cancelled_by, dict_action)
   VALUES ($1, $2, $3, $14, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
   ON CONFLICT (id) DO NOTHING
   RETURNING *`,
);

/**
 * DICT's claim as it now is, unless an older listing's (dict_last_modified): its status and reasons, and the action
 * owed DICT cleared once the claim is past it (acknowledged, decided, or ended whoever ended it); a claim of ours the
 * donor confirmed owes DICT its completion. Answers the row and its status before, so the caller reports a change once.
 */
const APPLY_DICT = statement(
  'claims_apply_dict',
  `UPDATE claims c SET status = $3, dict_last_modified = $4, confirm_reason = $5, cancel_reason = $6, cancelled_by = $7,
          resolution_period_end = $8, completion_period_end = $9, updated_at = $10,
          dict_action = CASE WHEN $3 = 'confirmed' AND c.role = 'claimer' THEN 'complete'
                             WHEN $3 = 'open' AND c.dict_action = 'acknowledge' THEN c.dict_action
                             WHEN $3 = 'waiting_resolution' AND c.dict_action IN ('confirm', 'cancel') THEN c.dict_action
                             ELSE NULL END,
          dict_action_reason = CASE WHEN $3 = 'waiting_resolution' AND c.dict_action IN ('confirm', 'cancel') THEN c.dict_action_reason END,
          dict_attempts = CASE WHEN $3 = 'waiting_resolution' AND c.dict_action IN ('confirm', 'cancel')
                                 OR $3 = 'confirmed' AND c.dict_action = 'complete' THEN c.dict_attempts ELSE 0 END,
          dict_next_attempt_at = CASE WHEN $3 = 'waiting_resolution' AND c.dict_action IN ('confirm', 'cancel')
                                      OR $3 = 'confirmed' AND c.dict_action = 'complete' THEN c.dict_next_attempt_at END,
          dict_last_error = CASE WHEN $3 = 'waiting_resolution' AND c.dict_action IN ('confirm', 'cancel') THEN c.dict_last_error END
   FROM (SELECT status FROM claims WHERE id = $2 AND partner_id = $1 FOR UPDATE) AS before
   WHERE c.id = $2 AND c.partner_id = $1 AND c.dict_last_modified <= $4
   RETURNING c.*, before.status AS status_before`,
);

/**
 * The partner's decision on a claim of the user's key, if it still waits for one: the action owed DICT, due at once.
 * The key is named by the user's document, as every Pix key route names it.
 */
const DECIDE = statement(
  'claims_decide',
  `UPDATE claims c SET dict_action = $4, dict_action_reason = $5, decided_by = 'partner', ${DICT_QUEUE.cleared},
          updated_at = $6
   FROM pix_keys k
   WHERE c.role = 'donor' AND c.id = $3 AND c.partner_id = $1 AND k.id = c.pix_key_id AND k.partner_id = $1 AND k.document = $2
     AND c.status = 'waiting_resolution' AND c.dict_action IS NULL
   RETURNING c.*`,
);

/** The partner's claim of that id on the user's key, whatever its state (to tell why a decision was not taken); donor's only: a claim of ours takes no decision. */
const FIND_FOR_PARTNER = statement(
  'claims_find_for_partner',
  `SELECT c.* FROM claims c JOIN pix_keys k ON k.id = c.pix_key_id
   WHERE c.role = 'donor' AND c.id = $3 AND c.partner_id = $1 AND k.partner_id = $1 AND k.document = $2`,
);

/**
 * The default at the end of the resolution period, for the claims nobody decided: the document lets the donor cancel
 * a portability with DEFAULT_OPERATION then (the key stays), and confirm an ownership with it (the key goes).
 */
const DEFAULTS_DUE = statement(
  'claims_defaults_due',
  `UPDATE claims SET dict_action = CASE type WHEN 'portability' THEN 'cancel' ELSE 'confirm' END,
          dict_action_reason = 'DEFAULT_OPERATION', decided_by = 'default', ${DICT_QUEUE.cleared}, updated_at = $1
   WHERE role = 'donor' AND status = 'waiting_resolution' AND dict_action IS NULL AND resolution_period_end <= $1
   RETURNING id`,
);

/**
 * The PixKeyClaim aggregate's storage (table `claims`). The partner's decision takes the partner and the user's
 * document; the DICT worker serves every partner, and each claim it moves carries its partner into its event.
 */
@Injectable()
export class PixKeyClaimRepository {
  constructor(private readonly db: Database) {}

  /** The listing's turn (see TAKE_POLL): where the last listing reached, or null when another instance has the turn. */
  async takePoll(role: ClaimRole, now: Date, until: Date): Promise<{ modifiedAfter: Date | null } | null> {
    const { rows } = await this.db.query<{ modified_after: Date | null }>(TAKE_POLL, [role, now, until]);
    return rows[0] ? { modifiedAfter: rows[0].modified_after } : null;
  }

  async advancePoll(role: ClaimRole, modifiedAfter: Date | null, nextPollAt: Date): Promise<void> {
    await this.db.query(ADVANCE_POLL, [role, modifiedAfter, nextPollAt]);
  }

  /** A claim by DICT's id (the worker's: any partner's). */
  async findForDict(id: string): Promise<PixKeyClaim | null> {
    const { rows } = await this.db.query<ClaimRow>(FIND, [id]);
    return rows[0] ? toClaim(rows[0]) : null;
  }

  async findForPartner(partnerId: PartnerId, document: string, id: string): Promise<PixKeyClaim | null> {
    const { rows } = await this.db.query<ClaimRow>(FIND_FOR_PARTNER, [partnerId, document, id]);
    return rows[0] ? toClaim(rows[0]) : null;
  }

  /** A claim DICT answers or lists for the first time, on the partner's key `pixKeyId`; null when it was recorded already. */
  async recordNew(
    tx: Transaction,
    partnerId: PartnerId,
    pixKeyId: string,
    role: ClaimRole,
    claim: DictClaim,
    action: ClaimAction | null,
  ): Promise<PixKeyClaim | null> {
    const { rows } = await tx.query<ClaimRow>(RECORD_NEW, [
      claim.id,
      partnerId,
      pixKeyId,
      claim.type.toLowerCase(),
      statusOf(claim),
      claim.resolutionPeriodEnd,
      claim.completionPeriodEnd,
      claim.lastModified,
      claim.claimerParticipant,
      claim.confirmReason,
      claim.cancelReason,
      claim.cancelledBy,
      action,
      role,
    ]);
    return rows[0] ? toClaim(rows[0]) : null;
  }

  /** DICT's claim as it now is (see APPLY_DICT); null when what is kept is newer. */
  async applyDict(
    tx: Transaction,
    claim: PixKeyClaim,
    dict: DictClaim,
    now: Date,
  ): Promise<{ claim: PixKeyClaim; statusBefore: ClaimStatus } | null> {
    const { rows } = await tx.query<ClaimRow & { status_before: ClaimStatus }>(APPLY_DICT, [
      claim.partnerId,
      claim.id,
      statusOf(dict),
      dict.lastModified,
      dict.confirmReason,
      dict.cancelReason,
      dict.cancelledBy,
      dict.resolutionPeriodEnd,
      dict.completionPeriodEnd,
      now,
    ]);
    return rows[0] ? { claim: toClaim(rows[0]), statusBefore: rows[0].status_before } : null;
  }

  /** The partner's decision (see DECIDE); null when the claim does not wait for one (findForPartner tells why). */
  async decide(
    tx: Transaction,
    partnerId: PartnerId,
    document: string,
    id: string,
    action: 'confirm' | 'cancel',
    reason: ClaimActionReason,
    now: Date,
  ): Promise<PixKeyClaim | null> {
    const { rows } = await tx.query<ClaimRow>(DECIDE, [partnerId, document, id, action, reason, now]);
    return rows[0] ? toClaim(rows[0]) : null;
  }

  /** Sets the default on every claim whose resolution period ended undecided (see DEFAULTS_DUE); how many. */
  async defaultsDue(now: Date): Promise<number> {
    return (await this.db.query(DEFAULTS_DUE, [now])).rows.length;
  }

  /** Takes up to `limit` claims whose call to DICT is due at `now`, each one attempt more, leased until `leaseUntil` (see DICT_QUEUE). */
  async claimDictWork(now: Date, leaseUntil: Date, limit: number): Promise<PixKeyClaim[]> {
    return (await DICT_QUEUE.claim<ClaimRow>(this.db, now, leaseUntil, limit)).map(toClaim);
  }

  /** Another attempt of the claim's call at `at`, `error` kept masked (errorText), unless another attempt took it meanwhile. */
  async retryLater(claim: PixKeyClaim, at: Date, error: string): Promise<void> {
    await DICT_QUEUE.retryLater(this.db, { id: claim.id, attempts: claim.dictAttempts }, at, errorText(error));
  }
}
