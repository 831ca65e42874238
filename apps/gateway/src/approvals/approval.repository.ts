import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId } from '@partner/contracts';
import { Database, statement } from '@partner/db';
import type { Actor } from '../operators/operator-name';
import { ApprovalStatus } from './approvals.dto';

/** A credit that waits for (or was decided by) a second operator key. */
export interface Approval {
  id: string;
  partnerId: PartnerId;
  document: string;
  usdtMicros: number;
  idempotencyKey: string;
  reference: string;
  status: ApprovalStatus;
  requestedByKeyId: string;
  requestedBy: string;
  requestedAt: Date;
  decidedByKeyId: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  note: string | null;
}

/** What a request records besides who asked: the credit. */
export type NewApproval = Pick<Approval, 'id' | 'partnerId' | 'document' | 'usdtMicros' | 'idempotencyKey' | 'reference'>;

interface ApprovalRow {
  id: string;
  partner_id: string;
  document: string;
  usdt_micros: string;
  idempotency_key: string;
  reference: string;
  status: ApprovalStatus;
  requested_by_key_id: string;
  requested_by: string;
  requested_at: Date;
  decided_by_key_id: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
}

const toApproval = (r: ApprovalRow): Approval => ({
  id: r.id,
  // Stored only for a partner the operator route named and requireKnownPartner vouched for.
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document,
  usdtMicros: Number(r.usdt_micros),
  idempotencyKey: r.idempotency_key,
  reference: r.reference,
  status: r.status,
  requestedByKeyId: r.requested_by_key_id,
  requestedBy: r.requested_by,
  requestedAt: r.requested_at,
  decidedByKeyId: r.decided_by_key_id,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  note: r.note,
});

const COLUMNS = `id, partner_id, document, usdt_micros::text AS usdt_micros, idempotency_key, reference, status, requested_by_key_id,
                 requested_by, requested_at, decided_by_key_id, decided_by, decided_at, note`;

/** A new request, unless the partner's idempotency key holds one already (then nothing: the caller reads it). */
const REQUEST = statement(
  'approval_request',
  `INSERT INTO approvals (id, kind, partner_id, document, usdt_micros, idempotency_key, reference, requested_by_key_id, requested_by, requested_from)
   VALUES ($1, 'usdt_credit', $2, $3, $4, $5, $6, $7, $8, $9)
   ON CONFLICT (partner_id, idempotency_key) DO NOTHING RETURNING ${COLUMNS}`,
);
const BY_KEY = statement('approval_by_key', `SELECT ${COLUMNS} FROM approvals WHERE partner_id = $1 AND idempotency_key = $2`);
const BY_ID = statement('approval_by_id', `SELECT ${COLUMNS} FROM approvals WHERE id = $1`);
/** Decides a pending request, by a key other than the one that asked (the table's CHECK says so too). */
const DECIDE = statement(
  'approval_decide',
  `UPDATE approvals SET status = $2, decided_by_key_id = $3, decided_by = $4, decided_from = $5, decided_at = now(), note = $6
   WHERE id = $1 AND status = 'pending_approval' AND requested_by_key_id <> $3 RETURNING ${COLUMNS}`,
);
const PAGE = statement(
  'approvals_page',
  `SELECT ${COLUMNS} FROM approvals WHERE $1::text IS NULL OR status = $1 ORDER BY requested_at DESC, id DESC LIMIT $2`,
);

/**
 * Dual control's requests (gateway.approvals). Operator data, not a partner's: every method reads or writes
 * across partners, as the operator API does; the partner is part of each request. A decided row is never
 * changed again and no row is ever deleted (the table's trigger).
 */
@Injectable()
export class ApprovalRepository {
  constructor(private readonly db: Database) {}

  /** The new request, or null when the partner's idempotency key holds one already. */
  async request(a: NewApproval, by: Actor): Promise<Approval | null> {
    const values = [a.id, a.partnerId, a.document, a.usdtMicros, a.idempotencyKey, a.reference, by.keyId, by.name, by.address];
    const { rows } = await this.db.query<ApprovalRow>(REQUEST, values);
    return rows[0] ? toApproval(rows[0]) : null;
  }

  async findByKey(partnerId: PartnerId, idempotencyKey: string): Promise<Approval | null> {
    const { rows } = await this.db.query<ApprovalRow>(BY_KEY, [partnerId, idempotencyKey]);
    return rows[0] ? toApproval(rows[0]) : null;
  }

  async findById(id: string): Promise<Approval | null> {
    const { rows } = await this.db.query<ApprovalRow>(BY_ID, [id]);
    return rows[0] ? toApproval(rows[0]) : null;
  }

  /** Decides it when it is pending and `by` is another key than the one that asked; null otherwise (nothing changed). */
  async decide(id: string, status: Exclude<ApprovalStatus, 'pending_approval'>, by: Actor, note: string | null): Promise<Approval | null> {
    const { rows } = await this.db.query<ApprovalRow>(DECIDE, [id, status, by.keyId, by.name, by.address, note]);
    return rows[0] ? toApproval(rows[0]) : null;
  }

  async page(status: ApprovalStatus | undefined, limit: number): Promise<Approval[]> {
    const { rows } = await this.db.query<ApprovalRow>(PAGE, [status ?? null, limit]);
    return rows.map(toApproval);
  }
}
