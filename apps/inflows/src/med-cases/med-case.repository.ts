import { Injectable } from '@nestjs/common';
import {
  authenticatedPartnerId,
  MedCaseAttention,
  MedCaseKind,
  MedCaseReason,
  MedCaseStatus,
  MedDictResult,
  MedRejectionReason,
  PartnerId,
} from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

export interface MedCaseRecord {
  id: bigint;
  caseId: string;
  kind: MedCaseKind;
  reason: MedCaseReason;
  endToEndId: string;
  /** The inflow's partner and user; null when no inflow has the payment. */
  user: { partnerId: PartnerId; document: string } | null;
  askedCents: bigint;
  blockedCents: bigint;
  returnedCents: bigint;
  status: MedCaseStatus;
  details: string | null;
  infractionReportId: string | null;
  openedBy: string;
  openedAt: Date;
  attention: MedCaseAttention | null;
  dictResult: MedDictResult | null;
  rejectionReason: MedRejectionReason | null;
  analysisDetails: string | null;
  refundId: bigint | null;
  refundTransactionId: string | null;
  decidedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface MedCaseRow {
  id: string;
  case_id: string;
  kind: MedCaseKind;
  reason: MedCaseReason;
  end_to_end_id: string;
  partner_id: string | null;
  document: string | null;
  asked_cents: string;
  blocked_cents: string;
  returned_cents: string;
  status: MedCaseStatus;
  details: string | null;
  infraction_report_id: string | null;
  opened_by: string;
  opened_at: Date;
  attention: MedCaseAttention | null;
  dict_result: MedDictResult | null;
  rejection_reason: MedRejectionReason | null;
  analysis_details: string | null;
  refund_id: string | null;
  refund_transaction_id: string | null;
  decided_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (r: MedCaseRow): MedCaseRecord => ({
  id: BigInt(r.id),
  caseId: r.case_id,
  kind: r.kind,
  reason: r.reason,
  endToEndId: r.end_to_end_id,
  user: r.partner_id !== null && r.document !== null ? { partnerId: authenticatedPartnerId(r.partner_id), document: r.document } : null,
  askedCents: BigInt(r.asked_cents),
  blockedCents: BigInt(r.blocked_cents),
  returnedCents: BigInt(r.returned_cents),
  status: r.status,
  details: r.details,
  infractionReportId: r.infraction_report_id,
  openedBy: r.opened_by,
  openedAt: r.opened_at,
  attention: r.attention,
  dictResult: r.dict_result,
  rejectionReason: r.rejection_reason,
  analysisDetails: r.analysis_details,
  refundId: r.refund_id === null ? null : BigInt(r.refund_id),
  refundTransactionId: r.refund_transaction_id,
  decidedBy: r.decided_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Records a case once: a redelivery (its case_id known) inserts nothing. */
const RECORD = statement(
  'inflows_med_case_record',
  `INSERT INTO med_cases (case_id, kind, reason, end_to_end_id, partner_id, document, asked_cents, blocked_cents, status, details,
                         infraction_report_id, opened_by, opened_at, attention, created_at, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11, $12, $13, $14, $14)
   ON CONFLICT (case_id) DO NOTHING
   RETURNING *`,
);

const LOCK_BY_CASE_ID = statement('inflows_med_case_lock', 'SELECT * FROM med_cases WHERE case_id = $1 FOR UPDATE');

const READ_BY_CASE_ID = statement('inflows_med_case_read', 'SELECT * FROM med_cases WHERE case_id = $1');

/** The cases of a payment that hold cents blocked, oldest first, locked (the end-to-end id's advisory lock is held too). */
const BLOCKING_OF_PAYMENT = statement(
  'inflows_med_case_blocking_of_payment',
  'SELECT * FROM med_cases WHERE end_to_end_id = $1 AND blocked_cents > 0 ORDER BY id FOR UPDATE',
);

/** The case of a MED devolução (pix_in_refunds.med_case_id), locked. */
const BY_REFUND = statement('inflows_med_case_by_refund', 'SELECT * FROM med_cases WHERE refund_id = $1 FOR UPDATE');

/** A case's new state: every field a decision, a block or a devolução's outcome may change. */
const UPDATE = statement(
  'inflows_med_case_update',
  `UPDATE med_cases SET status = $2, blocked_cents = $3, returned_cents = $4, dict_result = $5, rejection_reason = $6,
     analysis_details = $7, refund_id = $8, refund_transaction_id = $9, decided_by = $10, updated_at = $11
   WHERE id = $1 RETURNING *`,
);

const NO_CURSOR = '9223372036854775807';

/** The list, by each filter: a statement per shape so each keeps its plan (indexes (status, id), (partner_id, status, id)). */
const LIST = statement('inflows_med_case_list', 'SELECT * FROM med_cases WHERE id < $1 ORDER BY id DESC LIMIT $2');
const LIST_BY_STATUS = statement(
  'inflows_med_case_list_by_status',
  'SELECT * FROM med_cases WHERE status = $3 AND id < $1 ORDER BY id DESC LIMIT $2',
);
const LIST_BY_PARTNER = statement(
  'inflows_med_case_list_by_partner',
  'SELECT * FROM med_cases WHERE partner_id = $3 AND id < $1 ORDER BY id DESC LIMIT $2',
);
const LIST_BY_PARTNER_STATUS = statement(
  'inflows_med_case_list_by_partner_status',
  'SELECT * FROM med_cases WHERE partner_id = $3 AND status = $4 AND id < $1 ORDER BY id DESC LIMIT $2',
);

/** A case's fields a change may set (the others are the case as DICT opened it). */
export type MedCaseChange = Pick<
  MedCaseRecord,
  | 'status'
  | 'blockedCents'
  | 'returnedCents'
  | 'dictResult'
  | 'rejectionReason'
  | 'analysisDetails'
  | 'refundId'
  | 'refundTransactionId'
  | 'decidedBy'
>;

/**
 * The MedCase aggregate's storage. Cases come from DICT (through the pix-keys service) and are read and decided
 * by the operator: none is a partner's request, so lookups are by DICT's case id; the list filters by partner.
 */
@Injectable()
export class MedCaseRepository {
  constructor(private readonly db: Database) {}

  /** Records a new case at `open`; null when its case_id is known (a redelivery: nothing written). */
  async record(
    tx: Transaction,
    c: Pick<
      MedCaseRecord,
      | 'caseId'
      | 'kind'
      | 'reason'
      | 'endToEndId'
      | 'user'
      | 'askedCents'
      | 'blockedCents'
      | 'details'
      | 'infractionReportId'
      | 'openedBy'
      | 'openedAt'
      | 'attention'
    >,
    now: Date,
  ): Promise<MedCaseRecord | null> {
    const {
      rows: [row],
    } = await tx.query<MedCaseRow>(RECORD, [
      c.caseId,
      c.kind,
      c.reason,
      c.endToEndId,
      c.user?.partnerId ?? null,
      c.user?.document ?? null,
      c.askedCents.toString(),
      c.blockedCents.toString(),
      c.details,
      c.infractionReportId,
      c.openedBy,
      c.openedAt,
      c.attention,
      now,
    ]);
    return row ? toRecord(row) : null;
  }

  async lock(tx: Transaction, caseId: string): Promise<MedCaseRecord | null> {
    const {
      rows: [row],
    } = await tx.query<MedCaseRow>(LOCK_BY_CASE_ID, [caseId]);
    return row ? toRecord(row) : null;
  }

  async find(caseId: string): Promise<MedCaseRecord | null> {
    const {
      rows: [row],
    } = await this.db.query<MedCaseRow>(READ_BY_CASE_ID, [caseId]);
    return row ? toRecord(row) : null;
  }

  /** The payment's cases holding blocked cents, oldest first, locked. */
  async lockBlockingOf(tx: Transaction, endToEndId: string): Promise<MedCaseRecord[]> {
    return (await tx.query<MedCaseRow>(BLOCKING_OF_PAYMENT, [endToEndId])).rows.map(toRecord);
  }

  /** The case whose devolução is refund `refundId`, locked; null when none. */
  async lockByRefund(tx: Transaction, refundId: bigint): Promise<MedCaseRecord | null> {
    const {
      rows: [row],
    } = await tx.query<MedCaseRow>(BY_REFUND, [refundId.toString()]);
    return row ? toRecord(row) : null;
  }

  /** Writes a locked case's change, stamped `now`. */
  async update(tx: Transaction, c: MedCaseRecord, change: Partial<MedCaseChange>, now: Date): Promise<MedCaseRecord> {
    const next = { ...c, ...change };
    const {
      rows: [row],
    } = await tx.query<MedCaseRow>(UPDATE, [
      c.id.toString(),
      next.status,
      next.blockedCents.toString(),
      next.returnedCents.toString(),
      next.dictResult,
      next.rejectionReason,
      next.analysisDetails,
      next.refundId?.toString() ?? null,
      next.refundTransactionId,
      next.decidedBy,
      now,
    ]);
    return toRecord(row);
  }

  /** A page of cases, newest first, below `beforeId`, optionally of one status and one partner. */
  async list(page: { status?: MedCaseStatus; partnerId?: PartnerId; beforeId?: bigint; take: number }): Promise<MedCaseRecord[]> {
    const base = [page.beforeId?.toString() ?? NO_CURSOR, page.take];
    const { rows } =
      page.partnerId === undefined
        ? page.status === undefined
          ? await this.db.query<MedCaseRow>(LIST, base)
          : await this.db.query<MedCaseRow>(LIST_BY_STATUS, [...base, page.status])
        : page.status === undefined
          ? await this.db.query<MedCaseRow>(LIST_BY_PARTNER, [...base, page.partnerId])
          : await this.db.query<MedCaseRow>(LIST_BY_PARTNER_STATUS, [...base, page.partnerId, page.status]);
    return rows.map(toRecord);
  }
}
