import { Injectable } from '@nestjs/common';
import { AccountType, authenticatedPartnerId, IngestPixInflowCommand, PartnerId, PixInMethod, PixInStatus } from '@partner/contracts';
import type { QueryResultRow } from 'pg';
import { Database, onConstraintViolation, Queryable, statement, Statement, Transaction } from '@partner/db';
import { SenderDetails, SenderRecord, senderRecordOf, senderValues } from './pix-in-sender';

export interface PixInflowRecord extends SenderRecord {
  id: bigint;
  partnerId: PartnerId;
  document: string;
  endToEndId: string;
  amountCents: bigint;
  description: string | null;
  method: PixInMethod;
  /** The receiving account as notified (at the operator's ISPB: the user's account), and the key of a Pix by key. */
  receiverBranch: string;
  receiverNumber: string;
  receiverType: AccountType;
  receiverKey: string | null;
  status: PixInStatus;
  /** Cents of its refunds not failed, and of those returned (docs/api.md: "Refunds"). */
  refundedCents: bigint;
  returnedCents: bigint;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of `pix_inflows` as the driver returns it (int8 as text, timestamptz as Date). */
interface PixInflowRow extends SenderDetails {
  id: string;
  partner_id: string;
  document: string;
  end_to_end_id: string;
  amount_cents: string;
  description: string | null;
  method: PixInMethod;
  receiver_branch: string;
  receiver_number: string;
  receiver_type: AccountType;
  receiver_key: string | null;
  status: PixInStatus;
  refunded_cents: string;
  returned_cents: string;
  created_at: Date;
  updated_at: Date;
}

/** A row parsed into the aggregate, field by field. Its partner id is one a PartnerId was stored as (every write takes one). */
const toRecord = (r: PixInflowRow): PixInflowRecord => ({
  id: BigInt(r.id),
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document,
  endToEndId: r.end_to_end_id,
  amountCents: BigInt(r.amount_cents),
  description: r.description,
  method: r.method,
  ...senderRecordOf(r),
  receiverBranch: r.receiver_branch,
  receiverNumber: r.receiver_number,
  receiverType: r.receiver_type,
  receiverKey: r.receiver_key,
  status: r.status,
  refundedCents: BigInt(r.refunded_cents),
  returnedCents: BigInt(r.returned_cents),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * Every notification of one end-to-end id, whichever table it ends in (pix_inflows, or unmatched_pix_inflows
 * when no user has the account), applies after the previous one committed: a transaction-scoped advisory
 * lock on the id (class 38, the id's hash; a collision only makes two inflows wait for each other).
 */
const LOCK_END_TO_END_ID = statement('inflows_pix_inflow_lock_e2e', 'SELECT pg_advisory_xact_lock(38, hashtext($1))');

/** The inflow of an end-to-end id, whoever's, locked until COMMIT. */
const BY_END_TO_END_ID = statement('inflows_pix_inflow_by_e2e', 'SELECT * FROM pix_inflows WHERE end_to_end_id = $1 FOR UPDATE');

/** Records an inflow the Pix provider (or the sandbox's simulated one) notified for a user's account, at the status it notified. */
const RECORD_NOTIFIED = statement(
  'inflows_pix_inflow_record_notified',
  `INSERT INTO pix_inflows (partner_id, document, end_to_end_id, amount_cents, description, method, sender_name, sender_tax_id,
                           sender_account_number, sender_account_type, sender_bank_code, sender_branch_code,
                           receiver_branch, receiver_number, receiver_type, receiver_key, status, created_at, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
   ON CONFLICT (end_to_end_id) DO NOTHING
   RETURNING *`,
);

/** One notified move of a locked inflow. */
const MOVE = statement(
  'inflows_pix_inflow_move',
  'UPDATE pix_inflows SET status = $3, updated_at = $4 WHERE partner_id = $1 AND id = $2 RETURNING *',
);

/** The partner's inflow of an end-to-end id (another partner's is not found), locked until COMMIT. */
const PARTNERS_BY_END_TO_END_ID = statement(
  'inflows_pix_inflow_partners_by_e2e',
  'SELECT * FROM pix_inflows WHERE partner_id = $1 AND end_to_end_id = $2 FOR UPDATE',
);

/** The same, read on the pool (the partner's read-back). */
const READ_BY_END_TO_END_ID = statement(
  'inflows_pix_inflow_read_by_e2e',
  'SELECT * FROM pix_inflows WHERE partner_id = $1 AND end_to_end_id = $2',
);

/**
 * Sets aside a refund's cents of a locked inflow. The caller checked they fit its amount (under the row lock);
 * the CHECK pix_inflows_refunds_within_amount fails the statement when they would not.
 */
const RESERVE_REFUND = statement(
  'inflows_pix_inflow_reserve_refund',
  'UPDATE pix_inflows SET refunded_cents = refunded_cents + $3 WHERE partner_id = $1 AND id = $2 RETURNING *',
);

/** The CHECK that an inflow's refunds not failed never pass its amount (migration pix_in_refunds). */
const REFUNDS_WITHIN_AMOUNT = 'pix_inflows_refunds_within_amount';

/** Gives back a failed refund's cents. */
const RELEASE_REFUND = statement(
  'inflows_pix_inflow_release_refund',
  'UPDATE pix_inflows SET refunded_cents = refunded_cents - $3 WHERE partner_id = $1 AND id = $2 RETURNING *',
);

/** Counts a settled devolução's cents as returned on a locked inflow, which moves to the status the caller decided. */
const COUNT_RETURN = statement(
  'inflows_pix_inflow_count_return',
  'UPDATE pix_inflows SET returned_cents = returned_cents + $3, status = $4, updated_at = $5 WHERE partner_id = $1 AND id = $2 RETURNING *',
);

/** The partner's inflows, newest first, below an id: the (partner_id, id) index, read backwards. */
const LIST = statement('inflows_pix_inflow_list', 'SELECT * FROM pix_inflows WHERE partner_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3');

/** The same in one status: the (partner_id, status, id) index. A statement of its own, so each keeps its plan. */
const LIST_BY_STATUS = statement(
  'inflows_pix_inflow_list_by_status',
  'SELECT * FROM pix_inflows WHERE partner_id = $1 AND status = $2 AND id < $3 ORDER BY id DESC LIMIT $4',
);

/** Above every id: the first page is the page below it, so both cases share one plan. */
const NO_CURSOR = '9223372036854775807';

/**
 * The PixInflow aggregate's storage. Writes run prepared statements inside a UnitOfWork transaction;
 * reads run prepared statements on the pool. Every lookup a partner can cause is scoped by partner.
 */
@Injectable()
export class PixInflowRepository {
  constructor(private readonly db: Database) {}

  /** Holds the end-to-end id until the transaction ends (see LOCK_END_TO_END_ID). */
  async lockEndToEndId(tx: Transaction, endToEndId: string): Promise<void> {
    await tx.query(LOCK_END_TO_END_ID, [endToEndId]);
  }

  /** The inflow of that end-to-end id (any partner's: the provider names accounts, not partners), locked; null when none. */
  async findByEndToEndId(tx: Transaction, endToEndId: string): Promise<PixInflowRecord | null> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(BY_END_TO_END_ID, [endToEndId]);
    return row ? toRecord(row) : null;
  }

  /** Records a notified inflow for the user whose account it names; null when its end-to-end id is taken. */
  async recordNotified(
    tx: Transaction,
    receiver: { partnerId: PartnerId; document: string },
    n: IngestPixInflowCommand,
    now: Date,
  ): Promise<PixInflowRecord | null> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(RECORD_NOTIFIED, [
      receiver.partnerId,
      receiver.document,
      n.end_to_end_id,
      n.amount_cents,
      n.description ?? null,
      n.method,
      ...senderValues(n),
      n.receiver_account.branch,
      n.receiver_account.number,
      n.receiver_account.type,
      n.receiver_key ?? null,
      n.status,
      now,
    ]);
    return row ? toRecord(row) : null;
  }

  /** Moves a locked inflow of the partner to `status`, stamped `now`. */
  async move(tx: Transaction, partnerId: PartnerId, id: bigint, status: PixInStatus, now: Date): Promise<PixInflowRecord> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(MOVE, [partnerId, id.toString(), status, now]);
    return toRecord(row);
  }

  /** The partner's inflow of that end-to-end id, locked; null when the partner has none. */
  async lockForPartner(tx: Transaction, partnerId: PartnerId, endToEndId: string): Promise<PixInflowRecord | null> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(PARTNERS_BY_END_TO_END_ID, [partnerId, endToEndId]);
    return row ? toRecord(row) : null;
  }

  /** The partner's inflow of that end-to-end id, as it is; null when the partner has none. */
  /** `on`: a snapshot (UnitOfWork.snapshot) when the inflow is read with its refunds. */
  async find(partnerId: PartnerId, endToEndId: string, on: Queryable = this.db): Promise<PixInflowRecord | null> {
    const {
      rows: [row],
    } = await on.query<PixInflowRow>(READ_BY_END_TO_END_ID, [partnerId, endToEndId]);
    return row ? toRecord(row) : null;
  }

  /**
   * Sets aside `cents` of a locked inflow for a refund, which the caller checked fit its amount under the lock.
   * Throws, and the transaction is lost, when its refunds would then pass its amount (the CHECK
   * pix_inflows_refunds_within_amount): a bug of the caller's check.
   */
  async reserveRefund(tx: Transaction, inflow: PixInflowRecord, cents: bigint): Promise<PixInflowRecord> {
    const {
      rows: [row],
    } = await onConstraintViolation(tx.query<PixInflowRow>(RESERVE_REFUND, [inflow.partnerId, inflow.id.toString(), cents.toString()]), {
      [REFUNDS_WITHIN_AMOUNT]: (error) => {
        throw new Error(`refunding ${cents} cents of inflow ${inflow.endToEndId} would pass its amount (${REFUNDS_WITHIN_AMOUNT})`, {
          cause: error,
        });
      },
    });
    return toRecord(row);
  }

  /** Gives back the cents a failed refund had set aside. */
  async releaseRefund(tx: Transaction, partnerId: PartnerId, id: bigint, cents: bigint): Promise<void> {
    await tx.query(RELEASE_REFUND, [partnerId, id.toString(), cents.toString()]);
  }

  /**
   * Counts a settled devolução's `cents` as returned on the inflow, locked in this transaction, and moves it to
   * `status` (the caller's statusAfterReturn, decided on the locked row), stamped `now`.
   */
  async countReturn(tx: Transaction, inflow: PixInflowRecord, cents: bigint, status: PixInStatus, now: Date): Promise<PixInflowRecord> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(COUNT_RETURN, [inflow.partnerId, inflow.id.toString(), cents.toString(), status, now]);
    return toRecord(row);
  }

  /** One page of the partner's inflows, newest first (by id, the order they were recorded in). */
  async list(partnerId: PartnerId, page: { status?: PixInStatus; beforeId?: bigint; take: number }): Promise<PixInflowRecord[]> {
    const below = page.beforeId?.toString() ?? NO_CURSOR;
    const rows =
      page.status === undefined
        ? await this.query<PixInflowRow>(LIST, [partnerId, below, page.take])
        : await this.query<PixInflowRow>(LIST_BY_STATUS, [partnerId, page.status, below, page.take]);
    return rows.map(toRecord);
  }

  private async query<R extends QueryResultRow>(s: Statement, values: unknown[]): Promise<R[]> {
    return (await this.db.query<R>(s, values)).rows;
  }
}
