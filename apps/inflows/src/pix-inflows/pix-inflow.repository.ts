import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, IngestPixInflowCommand, PartnerId, PixInMethod, PixInStatus, SenderAccountType } from '@partner/contracts';
import type { QueryResultRow } from 'pg';
import { Database, statement, Statement, Transaction } from '@partner/db';
import { senderValues, SenderDetails } from './pix-in-sender';

export interface PixInflowRecord {
  id: bigint;
  partnerId: PartnerId;
  document: string;
  endToEndId: string;
  amountCents: bigint;
  description: string | null;
  method: PixInMethod;
  senderName: string;
  senderTaxId: string;
  senderAccountNumber: string;
  senderAccountType: SenderAccountType;
  senderBankCode: string;
  senderBranchCode: string;
  status: PixInStatus;
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
  status: PixInStatus;
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
  senderName: r.sender_name,
  senderTaxId: r.sender_tax_id,
  senderAccountNumber: r.sender_account_number,
  senderAccountType: r.sender_account_type,
  senderBankCode: r.sender_bank_code,
  senderBranchCode: r.sender_branch_code,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The partner's inflow of an end-to-end id, locked until COMMIT: the Pix provider's notifications of one inflow apply one after the other. */
const LOCK_BY_END_TO_END_ID = statement(
  'inflows_pix_inflow_lock_by_e2e',
  'SELECT * FROM pix_inflows WHERE partner_id = $1 AND end_to_end_id = $2 FOR UPDATE',
);

/**
 * Records an inflow the Pix provider (or the sandbox's simulated one) notifies, at the status it notified,
 * when the receiving user is known here and the end-to-end id is not recorded yet (for any partner).
 * One row always: whether the user is known, and the inflow's columns when it was inserted (else nulls).
 */
const RECORD_NOTIFIED = statement(
  'inflows_pix_inflow_record_notified',
  `WITH reach AS (SELECT EXISTS (SELECT 1 FROM users WHERE partner_id = $1::uuid AND document = $2::bpchar) AS user_known),
   inserted AS (
     INSERT INTO pix_inflows (partner_id, document, end_to_end_id, amount_cents, description, method, sender_name, sender_tax_id,
                              sender_account_number, sender_account_type, sender_bank_code, sender_branch_code, status,
                              created_at, updated_at)
     SELECT $1::uuid, $2::bpchar, $3::bpchar, $4::bigint, $5::text, $6::text, $7::text, $8::text,
            $9::text, $10::text, $11::bpchar, $12::text, $13::text, $14::timestamptz, $14::timestamptz
     FROM reach WHERE user_known
     ON CONFLICT (end_to_end_id) DO NOTHING
     RETURNING *)
   SELECT reach.user_known, inserted.* FROM reach LEFT JOIN inserted ON true`,
);

/** One notified move of a locked inflow. */
const MOVE = statement(
  'inflows_pix_inflow_move',
  'UPDATE pix_inflows SET status = $3, updated_at = $4 WHERE partner_id = $1 AND id = $2 RETURNING *',
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

  /** The partner's inflow of that end-to-end id, locked until the transaction ends; null when it has none. */
  async lockByEndToEndId(tx: Transaction, partnerId: PartnerId, endToEndId: string): Promise<PixInflowRecord | null> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(LOCK_BY_END_TO_END_ID, [partnerId, endToEndId]);
    return row ? toRecord(row) : null;
  }

  /** Records a notified inflow (see RECORD_NOTIFIED): the inflow, or why not (unknown user, or its end-to-end id taken). */
  async recordNotified(
    tx: Transaction,
    partnerId: PartnerId,
    n: IngestPixInflowCommand,
    now: Date,
  ): Promise<PixInflowRecord | 'user_not_found' | 'taken'> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow & { user_known: boolean }>(RECORD_NOTIFIED, [
      partnerId,
      n.document,
      n.end_to_end_id,
      n.amount_cents,
      n.description ?? null,
      n.method,
      ...senderValues(n),
      n.status,
      now,
    ]);
    if (!row.user_known) return 'user_not_found';
    return row.id === null ? 'taken' : toRecord(row);
  }

  /** Moves a locked inflow of the partner to `status`, stamped `now`. */
  async move(tx: Transaction, partnerId: PartnerId, id: bigint, status: PixInStatus, now: Date): Promise<PixInflowRecord> {
    const {
      rows: [row],
    } = await tx.query<PixInflowRow>(MOVE, [partnerId, id.toString(), status, now]);
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
