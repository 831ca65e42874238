import { Injectable } from '@nestjs/common';
import { AccountType, IngestPixInflowCommand, PixInMethod, PixInNotifiedStatus, UnmatchedPixInflowView } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';
import { SenderDetails, senderOf, senderValues } from './pix-in-sender';

/** A row of `unmatched_pix_inflows` as the driver returns it (int8 as text, timestamptz as Date). */
interface UnmatchedRow extends SenderDetails {
  id: string;
  end_to_end_id: string;
  amount_cents: string;
  description: string | null;
  method: PixInMethod;
  receiver_ispb: string;
  receiver_branch: string;
  receiver_number: string;
  receiver_type: AccountType;
  receiver_key: string | null;
  status: PixInNotifiedStatus;
  refusal: InflowRefusal | null;
  created_at: Date;
  updated_at: Date;
}

/** Why a Pix reached no user, as the provider is answered (null: kept aside before refusals were answered). */
export type InflowRefusal = 'account_not_found' | 'account_blocked' | 'account_closed';

export interface UnmatchedPixInflowRecord {
  id: bigint;
  /** The notification as recorded (its status the last one notified). */
  notification: IngestPixInflowCommand;
  refusal: InflowRefusal | null;
  createdAt: Date;
  updatedAt: Date;
}

const toRecord = (r: UnmatchedRow): UnmatchedPixInflowRecord => ({
  id: BigInt(r.id),
  notification: {
    end_to_end_id: r.end_to_end_id,
    amount_cents: Number(r.amount_cents),
    ...(r.description !== null && { description: r.description }),
    method: r.method,
    receiver_account: { ispb: r.receiver_ispb, branch: r.receiver_branch, number: r.receiver_number, type: r.receiver_type },
    ...(r.receiver_key !== null && { receiver_key: r.receiver_key }),
    ...senderOf(r),
    status: r.status,
  },
  refusal: r.refusal,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The inflow kept aside as the operator API lists it. */
export const toUnmatchedView = ({ notification: n, refusal, createdAt, updatedAt }: UnmatchedPixInflowRecord): UnmatchedPixInflowView => ({
  end_to_end_id: n.end_to_end_id,
  amount_cents: n.amount_cents,
  ...(n.description !== undefined && { description: n.description }),
  method: n.method,
  receiver_account: n.receiver_account,
  receiver_key: n.receiver_key ?? null,
  sender_name: n.sender_name,
  sender_tax_id: n.sender_tax_id,
  sender_account_number: n.sender_account_number,
  sender_account_type: n.sender_account_type,
  sender_bank_code: n.sender_bank_code,
  sender_branch_code: n.sender_branch_code,
  status: n.status,
  created_at: unix(createdAt),
  last_updated_at: unix(updatedAt),
  refusal,
});

const BY_END_TO_END_ID = statement('inflows_unmatched_by_e2e', 'SELECT * FROM unmatched_pix_inflows WHERE end_to_end_id = $1 FOR UPDATE');

/** Keeps a notification aside as it came; null when its end-to-end id is taken. */
const RECORD = statement(
  'inflows_unmatched_record',
  `INSERT INTO unmatched_pix_inflows (end_to_end_id, amount_cents, description, method, sender_name, sender_tax_id, sender_account_number,
                                     sender_account_type, sender_bank_code, sender_branch_code, receiver_ispb, receiver_branch,
                                     receiver_number, receiver_type, receiver_key, status, created_at, updated_at, refusal)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18)
   ON CONFLICT (end_to_end_id) DO NOTHING
   RETURNING *`,
);

const MOVE = statement('inflows_unmatched_move', 'UPDATE unmatched_pix_inflows SET status = $2, updated_at = $3 WHERE id = $1 RETURNING *');

/** Newest first, below an id: the primary key, read backwards. */
const LIST = statement('inflows_unmatched_list', 'SELECT * FROM unmatched_pix_inflows WHERE id < $1 ORDER BY id DESC LIMIT $2');

const NO_CURSOR = '9223372036854775807';

/**
 * The inflows the Pix provider notified for an account no user has: no partner's, so no partner reads
 * them; the operator lists them. Writes run in the ingestion's transaction, under its lock of the end-to-end id.
 */
@Injectable()
export class UnmatchedPixInflowRepository {
  constructor(private readonly db: Database) {}

  async findByEndToEndId(tx: Transaction, endToEndId: string): Promise<UnmatchedPixInflowRecord | null> {
    const {
      rows: [row],
    } = await tx.query<UnmatchedRow>(BY_END_TO_END_ID, [endToEndId]);
    return row ? toRecord(row) : null;
  }

  async record(tx: Transaction, n: IngestPixInflowCommand, refusal: InflowRefusal, now: Date): Promise<UnmatchedPixInflowRecord | null> {
    const {
      rows: [row],
    } = await tx.query<UnmatchedRow>(RECORD, [
      n.end_to_end_id,
      n.amount_cents,
      n.description ?? null,
      n.method,
      ...senderValues(n),
      n.receiver_account.ispb,
      n.receiver_account.branch,
      n.receiver_account.number,
      n.receiver_account.type,
      n.receiver_key ?? null,
      n.status,
      now,
      refusal,
    ]);
    return row ? toRecord(row) : null;
  }

  async move(tx: Transaction, id: bigint, status: PixInNotifiedStatus, now: Date): Promise<UnmatchedPixInflowRecord> {
    const {
      rows: [row],
    } = await tx.query<UnmatchedRow>(MOVE, [id.toString(), status, now]);
    return toRecord(row);
  }

  async list(page: { beforeId?: bigint; take: number }): Promise<UnmatchedPixInflowRecord[]> {
    const { rows } = await this.db.query<UnmatchedRow>(LIST, [page.beforeId?.toString() ?? NO_CURSOR, page.take]);
    return rows.map(toRecord);
  }
}
