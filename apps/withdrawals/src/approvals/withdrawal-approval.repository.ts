import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId, WithdrawalApproval, WithdrawalApprovalStatus } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

interface ApprovalRow {
  id: string;
  status: WithdrawalApprovalStatus;
  partner_id: string;
  withdrawal_id: number;
  document: string;
  amount_micros: string;
  idempotency_key: string;
  requested_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
}

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);
const toApproval = (r: ApprovalRow): WithdrawalApproval => ({
  id: r.id,
  status: r.status,
  // Written with the withdrawal, whose partner id a PartnerId was.
  partner_id: authenticatedPartnerId(r.partner_id),
  withdrawal_id: r.withdrawal_id,
  document: r.document.trimEnd(),
  usdt_micros: Number(r.amount_micros),
  idempotency_key: r.idempotency_key,
  requested_at: seconds(r.requested_at),
  decided_by: r.decided_by,
  decided_at: r.decided_at === null ? null : seconds(r.decided_at),
  note: r.note,
});

const COLUMNS = `a.id, a.status, a.partner_id, a.withdrawal_id, w.document, w.amount_micros::text AS amount_micros, w.idempotency_key,
                 a.requested_at, a.decided_by, a.decided_at, a.note`;
const REQUEST = statement(
  'withdrawal_approval_request',
  'INSERT INTO withdrawal_approvals (id, withdrawal_id, partner_id, requested_at) VALUES ($1, $2, $3, $4)',
);
const BY_ID = statement(
  'withdrawal_approval_by_id',
  `SELECT ${COLUMNS} FROM withdrawal_approvals a JOIN withdrawals w ON w.id = a.withdrawal_id WHERE a.id = $1`,
);
const LOCK = statement(
  'withdrawal_approval_lock',
  `SELECT ${COLUMNS} FROM withdrawal_approvals a JOIN withdrawals w ON w.id = a.withdrawal_id WHERE a.id = $1 FOR UPDATE OF a, w`,
);
const DECIDE = statement(
  'withdrawal_approval_decide',
  `UPDATE withdrawal_approvals SET status = $2, decided_by = $3, decided_at = $4, note = $5 WHERE id = $1 AND status = 'pending_approval'`,
);
/** The newest, of one status or all. A pending one whose withdrawal failed meanwhile (screened out) waits for no one: not listed as pending. */
const PAGE = statement(
  'withdrawal_approvals_page',
  `SELECT ${COLUMNS} FROM withdrawal_approvals a JOIN withdrawals w ON w.id = a.withdrawal_id
   WHERE $1::text IS NULL OR (a.status = $1 AND ($1 <> 'pending_approval' OR w.state = 'pending_approval'))
   ORDER BY a.requested_at DESC, a.id DESC LIMIT $2`,
);

/**
 * Approvals of withdrawals above their partner's threshold (withdrawals.withdrawal_approvals). Operator data:
 * the operator decides across partners; each approval names its partner and withdrawal.
 */
@Injectable()
export class WithdrawalApprovalRepository {
  constructor(private readonly db: Database) {}

  /** Records that `withdrawalId`, just created in `tx` in pending_approval, waits for an operator. */
  async request(tx: Transaction, a: { id: string; withdrawalId: number; partnerId: PartnerId; at: Date }): Promise<void> {
    await tx.query(REQUEST, [a.id, a.withdrawalId, a.partnerId, a.at]);
  }

  async find(id: string): Promise<WithdrawalApproval | null> {
    const { rows } = await this.db.query<ApprovalRow>(BY_ID, [id]);
    return rows[0] ? toApproval(rows[0]) : null;
  }

  /** The approval and its withdrawal locked to the end of `tx`. */
  async lock(tx: Transaction, id: string): Promise<WithdrawalApproval | null> {
    const { rows } = await tx.query<ApprovalRow>(LOCK, [id]);
    return rows[0] ? toApproval(rows[0]) : null;
  }

  async decide(
    tx: Transaction,
    id: string,
    status: Exclude<WithdrawalApprovalStatus, 'pending_approval'>,
    by: string,
    at: Date,
    note: string | null,
  ) {
    await tx.query(DECIDE, [id, status, by, at, note]);
  }

  async page(status: WithdrawalApprovalStatus | undefined, limit: number): Promise<WithdrawalApproval[]> {
    const { rows } = await this.db.query<ApprovalRow>(PAGE, [status ?? null, limit]);
    return rows.map(toApproval);
  }
}
