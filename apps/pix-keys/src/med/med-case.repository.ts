import { Injectable } from '@nestjs/common';
import { MedCaseKind, MedDictResult, MedRejectionReason } from '@partner/contracts';
import { Database, statement, Transaction, WorkQueue } from '@partner/db';
import { errorText } from '@partner/tracing';

/**
 * This side of a case: recorded, its close owed DICT, closed at DICT, the close refused by DICT, or cancelled in DICT
 * by its opener (nothing owed DICT any more; the decision, if one was recorded, is kept).
 */
export type MedCaseStatus = 'received' | 'closing' | 'closed' | 'failed' | 'cancelled';

export interface MedCase {
  id: string;
  kind: MedCaseKind;
  endToEndId: string;
  status: MedCaseStatus;
  acknowledgedAt: Date | null;
  dictResult: MedDictResult | null;
  analysisDetails: string | null;
  rejectionReason: MedRejectionReason | null;
  refundTransactionId: string | null;
  dictLastModified: Date;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

interface MedCaseRow {
  id: string;
  kind: MedCaseKind;
  end_to_end_id: string;
  status: MedCaseStatus;
  acknowledged_at: Date | null;
  dict_result: MedDictResult | null;
  analysis_details: string | null;
  rejection_reason: MedRejectionReason | null;
  refund_transaction_id: string | null;
  dict_last_modified: Date;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

/** The columns' CHECK constraints hold the enumerations. */
const toCase = (r: MedCaseRow): MedCase => ({
  id: r.id,
  kind: r.kind,
  endToEndId: r.end_to_end_id,
  status: r.status,
  acknowledgedAt: r.acknowledged_at,
  dictResult: r.dict_result,
  analysisDetails: r.analysis_details,
  rejectionReason: r.rejection_reason,
  refundTransactionId: r.refund_transaction_id,
  dictLastModified: r.dict_last_modified,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  closedAt: r.closed_at,
});

/** What DICT is to be told at the close (MedCaseChangedEvent's decision). */
export interface MedClose {
  result: MedDictResult;
  analysisDetails: string | null;
  rejectionReason: MedRejectionReason | null;
  refundTransactionId: string | null;
}

/** The listing's turn of a kind, if it is this caller's: the lease moved on to `$3`, and where the last listing reached. */
const TAKE_POLL = statement(
  'med_take_poll',
  `UPDATE dict_med_polls SET next_poll_at = $3 WHERE kind = $1 AND next_poll_at <= $2 RETURNING modified_after`,
);

/** Where the listing reached (never backwards), and when the next one is due. */
const ADVANCE_POLL = statement(
  'med_advance_poll',
  `UPDATE dict_med_polls SET modified_after = GREATEST(modified_after, $2), next_poll_at = $3 WHERE kind = $1`,
);

const FIND = statement('med_find', `SELECT * FROM dict_med_cases WHERE id = $1`);

/** Which of these ids are recorded already (a listing's page, most of it known after the first turn). */
const KNOWN = statement('med_known', `SELECT id FROM dict_med_cases WHERE id = ANY($1::uuid[])`);

/** A case read from DICT for the first time; nothing if it was recorded already. */
const RECORD_NEW = statement(
  'med_record_new',
  `INSERT INTO dict_med_cases (id, kind, end_to_end_id, dict_last_modified, acknowledged_at, created_at, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $6)
   ON CONFLICT (id) DO NOTHING
   RETURNING *`,
);

/**
 * The MED cases' DICT queue (a WorkQueue, libs/db, as the claims'): the cases that owe DICT a call, a report's
 * acknowledgement while it is owed and a close once asked for, oldest due first.
 */
const QUEUE = new WorkQueue({
  name: 'med',
  table: 'dict_med_cases',
  workable: `status = 'received' AND kind = 'infraction_report' AND acknowledged_at IS NULL OR status = 'closing'`,
  tieBreak: 'updated_at',
});

/** DICT took the acknowledgement: a close asked for meanwhile is due at once, on fresh attempts. */
const ACKNOWLEDGED = statement(
  'med_acknowledged',
  `UPDATE dict_med_cases SET acknowledged_at = $2, ${QUEUE.cleared}, updated_at = $2
   WHERE id = $1 AND acknowledged_at IS NULL
   RETURNING *`,
);

/** The decision, while the case waits for one: its close owed DICT, due at once. */
const REQUEST_CLOSE = statement(
  'med_request_close',
  `UPDATE dict_med_cases SET status = 'closing', dict_result = $3, analysis_details = $4, rejection_reason = $5,
          refund_transaction_id = $6, ${QUEUE.cleared}, updated_at = $7
   WHERE id = $1 AND kind = $2 AND status = 'received'
   RETURNING *`,
);

const CLOSED = statement(
  'med_closed',
  `UPDATE dict_med_cases SET status = 'closed', closed_at = $2, next_attempt_at = NULL, last_error = NULL, updated_at = $2
   WHERE id = $1 AND status = 'closing'`,
);

const FAILED = statement(
  'med_failed',
  `UPDATE dict_med_cases SET status = 'failed', next_attempt_at = NULL, last_error = $3, updated_at = $4
   WHERE ${QUEUE.heldBy(1, 2)} AND status = 'closing'`,
);

/** DICT has the case CANCELLED: nothing owed DICT any more, once (a repeat finds it cancelled already). */
const CANCELLED = statement(
  'med_cancelled',
  `UPDATE dict_med_cases SET status = 'cancelled', dict_last_modified = GREATEST(dict_last_modified, $2),
          next_attempt_at = NULL, last_error = NULL, updated_at = $3
   WHERE id = $1 AND status <> 'cancelled'
   RETURNING *`,
);

/** The MED cases' storage (table `dict_med_cases`) and their listings' turns (`dict_med_polls`). */
@Injectable()
export class MedCaseRepository {
  constructor(private readonly db: Database) {}

  /** The listing's turn (see TAKE_POLL): where the last listing reached, or null when another instance has the turn. */
  async takePoll(kind: MedCaseKind, now: Date, until: Date): Promise<{ modifiedAfter: Date | null } | null> {
    const { rows } = await this.db.query<{ modified_after: Date | null }>(TAKE_POLL, [kind, now, until]);
    return rows[0] ? { modifiedAfter: rows[0].modified_after } : null;
  }

  async advancePoll(kind: MedCaseKind, modifiedAfter: Date | null, nextPollAt: Date): Promise<void> {
    await this.db.query(ADVANCE_POLL, [kind, modifiedAfter, nextPollAt]);
  }

  async find(id: string): Promise<MedCase | null> {
    const { rows } = await this.db.query<MedCaseRow>(FIND, [id]);
    return rows[0] ? toCase(rows[0]) : null;
  }

  async known(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.db.query<{ id: string }>(KNOWN, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /** A case DICT lists for the first time; null when it was recorded already (another instance, an earlier turn). */
  async recordNew(
    tx: Transaction,
    c: { id: string; kind: MedCaseKind; endToEndId: string; dictLastModified: Date; acknowledgedAt: Date | null },
    now: Date,
  ): Promise<MedCase | null> {
    const { rows } = await tx.query<MedCaseRow>(RECORD_NEW, [c.id, c.kind, c.endToEndId, c.dictLastModified, c.acknowledgedAt, now]);
    return rows[0] ? toCase(rows[0]) : null;
  }

  /** Takes up to `limit` cases whose call to DICT is due at `now`, each one attempt more, leased until `leaseUntil` (see QUEUE). */
  async claimWork(now: Date, leaseUntil: Date, limit: number): Promise<MedCase[]> {
    return (await QUEUE.claim<MedCaseRow>(this.db, now, leaseUntil, limit)).map(toCase);
  }

  async acknowledged(id: string, at: Date): Promise<MedCase | null> {
    const { rows } = await this.db.query<MedCaseRow>(ACKNOWLEDGED, [id, at]);
    return rows[0] ? toCase(rows[0]) : null;
  }

  /** The decision (see REQUEST_CLOSE); null when the case is not one of `kind` waiting for it (unknown, or decided already). */
  async requestClose(id: string, kind: MedCaseKind, close: MedClose, now: Date): Promise<MedCase | null> {
    const { rows } = await this.db.query<MedCaseRow>(REQUEST_CLOSE, [
      id,
      kind,
      close.result,
      close.analysisDetails,
      close.rejectionReason,
      close.refundTransactionId,
      now,
    ]);
    return rows[0] ? toCase(rows[0]) : null;
  }

  async closed(id: string, at: Date): Promise<void> {
    await this.db.query(CLOSED, [id, at]);
  }

  /** DICT refused the close: the case ends `failed`, the problem kept masked (errorText), unless another attempt took it meanwhile. */
  async failed(c: MedCase, error: string, at: Date): Promise<void> {
    await this.db.query(FAILED, [c.id, c.attempts, errorText(error), at]);
  }

  /** The case cancelled in DICT (see CANCELLED), in the transaction that tells the inflows service; null if it was already. */
  async cancelled(tx: Transaction, id: string, dictLastModified: Date, now: Date): Promise<MedCase | null> {
    const { rows } = await tx.query<MedCaseRow>(CANCELLED, [id, dictLastModified, now]);
    return rows[0] ? toCase(rows[0]) : null;
  }

  /** Another attempt of the case's call at `at`, `error` kept masked (errorText), unless another attempt took it meanwhile. */
  async retryLater(c: MedCase, at: Date, error: string): Promise<void> {
    await QUEUE.retryLater(this.db, c, at, errorText(error));
  }
}
