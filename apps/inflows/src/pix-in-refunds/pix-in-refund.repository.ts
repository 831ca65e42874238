import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId, PixInRefundStatus } from '@partner/contracts';
import { Database, Queryable, statement, Transaction } from '@partner/db';

export interface PixInRefundRecord {
  id: bigint;
  partnerId: PartnerId;
  document: string;
  endToEndId: string;
  idempotencyKey: string;
  amountCents: bigint;
  reason: string;
  status: PixInRefundStatus;
  /** The devolução's id at the provider (DevolucaoId). */
  providerId: string;
  rtrId: string | null;
  failureReason: string | null;
  /** The MED case whose accepted refund request this devolução is (its cents came from the blocked balance); null for a partner's. */
  medCaseId: string | null;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

interface PixInRefundRow {
  id: string;
  partner_id: string;
  document: string;
  end_to_end_id: string;
  idempotency_key: string;
  amount_cents: string;
  reason: string;
  status: PixInRefundStatus;
  provider_id: string;
  rtr_id: string | null;
  failure_reason: string | null;
  med_case_id: string | null;
  attempts: number;
  next_attempt_at: Date;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (r: PixInRefundRow): PixInRefundRecord => ({
  id: BigInt(r.id),
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document,
  endToEndId: r.end_to_end_id,
  idempotencyKey: r.idempotency_key,
  amountCents: BigInt(r.amount_cents),
  reason: r.reason,
  status: r.status,
  providerId: r.provider_id,
  rtrId: r.rtr_id,
  failureReason: r.failure_reason,
  medCaseId: r.med_case_id,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The requests of one idempotency key apply one after the other (class 39; a hash collision only makes two wait). */
const LOCK_IDEMPOTENCY_KEY = statement('inflows_refund_lock_idempotency_key', 'SELECT pg_advisory_xact_lock(39, hashtext($1 || $2))');

const BY_IDEMPOTENCY_KEY = statement(
  'inflows_refund_by_idempotency_key',
  'SELECT * FROM pix_in_refunds WHERE partner_id = $1 AND idempotency_key = $2',
);

/** Records a refund at `created`, due to be sent at once (a MED case's names it: $9). */
const CREATE = statement(
  'inflows_refund_create',
  `INSERT INTO pix_in_refunds (partner_id, document, end_to_end_id, idempotency_key, amount_cents, reason, status, provider_id,
                              next_attempt_at, created_at, updated_at, med_case_id)
   VALUES ($1, $2, $3, $4, $5, $6, 'created', $7, $8, $8, $8, $9)
   RETURNING *`,
);

const OF_INFLOW = statement(
  'inflows_refund_of_inflow',
  'SELECT * FROM pix_in_refunds WHERE partner_id = $1 AND end_to_end_id = $2 ORDER BY id',
);

/**
 * The refunds due for a call to the provider (created: to send; processing: to ask how it went), oldest due
 * first, locked for this round: another instance's round skips them (SKIP LOCKED), so one refund is in one
 * round at a time.
 */
const DUE = statement(
  'inflows_refund_due',
  `SELECT * FROM pix_in_refunds WHERE status IN ('created', 'processing') AND next_attempt_at <= $1
   ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
);

/** A refund's move (or a new try later, its status kept), in the round's transaction. */
const UPDATE = statement(
  'inflows_refund_update',
  `UPDATE pix_in_refunds SET status = $3, rtr_id = COALESCE($4, rtr_id), failure_reason = $5, attempts = $6, next_attempt_at = $7,
     updated_at = CASE WHEN status = $3 THEN updated_at ELSE $8 END
   WHERE partner_id = $1 AND id = $2 RETURNING *`,
);

/** The PixInRefund aggregate's storage: every method is scoped by partner but the worker's due list (every partner's). */
@Injectable()
export class PixInRefundRepository {
  constructor(private readonly db: Database) {}

  /** Holds the partner's idempotency key until the transaction ends (see LOCK_IDEMPOTENCY_KEY). */
  async lockIdempotencyKey(tx: Transaction, partnerId: PartnerId, idempotencyKey: string): Promise<void> {
    await tx.query(LOCK_IDEMPOTENCY_KEY, [partnerId, idempotencyKey]);
  }

  /** The partner's refund of that idempotency key, in the transaction (the inflow's lock orders concurrent ones). */
  async findByIdempotencyKey(tx: Transaction, partnerId: PartnerId, idempotencyKey: string): Promise<PixInRefundRecord | null> {
    const {
      rows: [row],
    } = await tx.query<PixInRefundRow>(BY_IDEMPOTENCY_KEY, [partnerId, idempotencyKey]);
    return row ? toRecord(row) : null;
  }

  async create(
    tx: Transaction,
    partnerId: PartnerId,
    refund: {
      document: string;
      endToEndId: string;
      idempotencyKey: string;
      amountCents: bigint;
      reason: string;
      providerId: string;
      now: Date;
      medCaseId?: string;
    },
  ): Promise<PixInRefundRecord> {
    const {
      rows: [row],
    } = await tx.query<PixInRefundRow>(CREATE, [
      partnerId,
      refund.document,
      refund.endToEndId,
      refund.idempotencyKey,
      refund.amountCents.toString(),
      refund.reason,
      refund.providerId,
      refund.now,
      refund.medCaseId ?? null,
    ]);
    return toRecord(row);
  }

  /** The partner's refunds of an inflow, oldest first. */
  /** `on`: a snapshot (UnitOfWork.snapshot) when the refunds are read with their inflow. */
  async ofInflow(partnerId: PartnerId, endToEndId: string, on: Queryable = this.db): Promise<PixInRefundRecord[]> {
    return (await on.query<PixInRefundRow>(OF_INFLOW, [partnerId, endToEndId])).rows.map(toRecord);
  }

  /** Up to `limit` refunds due at `now`, locked for the caller's transaction (see DUE). */
  async lockDue(tx: Transaction, now: Date, limit: number): Promise<PixInRefundRecord[]> {
    return (await tx.query<PixInRefundRow>(DUE, [now, limit])).rows.map(toRecord);
  }

  /** Writes a refund's new state: `updated_at` moves only with its status (a retry is not a change the partner sees). */
  async update(
    tx: Transaction,
    partnerId: PartnerId,
    id: bigint,
    next: {
      status: PixInRefundStatus;
      rtrId: string | null;
      failureReason: string | null;
      attempts: number;
      nextAttemptAt: Date;
      now: Date;
    },
  ): Promise<PixInRefundRecord> {
    const {
      rows: [row],
    } = await tx.query<PixInRefundRow>(UPDATE, [
      partnerId,
      id.toString(),
      next.status,
      next.rtrId,
      next.failureReason,
      next.attempts,
      next.nextAttemptAt,
      next.now,
    ]);
    return toRecord(row);
  }
}
