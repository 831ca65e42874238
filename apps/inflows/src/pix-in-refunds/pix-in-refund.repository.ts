import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId, PixInRefundStatus } from '@partner/contracts';
import { Database, HeldRow, Queryable, statement, Transaction, WorkQueue } from '@partner/db';

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
 * The refunds' queue (libs/db WorkQueue): the refunds due for a call to the provider (created: to send;
 * processing: to ask how it went), claimed by one round at a time: attempts counts each claim, next_attempt_at
 * is the due time and the claim's lease. No failure text is kept of a retry (failure_reason is a failed
 * refund's reason, for the partner).
 */
const QUEUE = new WorkQueue({
  name: 'inflows_refunds',
  table: 'pix_in_refunds',
  workable: "status IN ('created', 'processing')",
  columns: { lastError: null },
});

/**
 * A claimed refund's outcome: its move, or a new try later with its status kept. Only while the claim still
 * holds it (QUEUE.heldBy: the same attempt, still created or processing): the UPDATE locks the row and
 * answers nothing when another claim took it since.
 */
const SETTLE = statement(
  'inflows_refund_settle',
  `UPDATE pix_in_refunds SET status = $4, rtr_id = COALESCE($5, rtr_id), failure_reason = $6, next_attempt_at = $7,
     updated_at = CASE WHEN status = $4 THEN updated_at ELSE $8 END
   WHERE partner_id = $3 AND ${QUEUE.heldBy(1, 2)} RETURNING *`,
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

  /**
   * Claims up to `limit` refunds due at `now` (every partner's), oldest due first, each one attempt more (its
   * `attempts` counts this one) and leased until `leaseUntil` (see QUEUE). Committed at once: no lock is held.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<PixInRefundRecord[]> {
    return (await QUEUE.claim<PixInRefundRow>(this.db, now, leaseUntil, limit)).map(toRecord);
  }

  /**
   * Writes a claimed refund's new state in the caller's transaction, only while `held` (the claim's record) still
   * holds it (see SETTLE): the refund as moved, or null when another claim took it since. `updated_at` moves only
   * with its status (a retry is not a change the partner sees).
   */
  async settle(
    tx: Transaction,
    held: PixInRefundRecord,
    next: { status: PixInRefundStatus; rtrId: string | null; failureReason: string | null; nextAttemptAt: Date; now: Date },
  ): Promise<PixInRefundRecord | null> {
    const {
      rows: [row],
    } = await tx.query<PixInRefundRow>(SETTLE, [
      held.id.toString(),
      held.attempts,
      held.partnerId,
      next.status,
      next.rtrId,
      next.failureReason,
      next.nextAttemptAt,
      next.now,
    ]);
    return row ? toRecord(row) : null;
  }

  /** A claimed refund due again at `at`, its state kept (see WorkQueue.retryLater); false when another claim took it since. */
  async retryLater(held: HeldRow, at: Date): Promise<boolean> {
    return QUEUE.retryLater(this.db, held, at, '');
  }
}
