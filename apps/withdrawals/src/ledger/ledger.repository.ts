import { Injectable } from '@nestjs/common';
import { LEDGER_ENTRY_TYPES, LedgerEntryType, PartnerId } from '@partner/contracts';
import { Database } from '@partner/db';

/** One ledger entry with the balances right after it; micros as bigint, read from their text. */
export interface LedgerLine {
  id: number;
  type: LedgerEntryType;
  availableDelta: bigint;
  heldDelta: bigint;
  availableAfter: bigint;
  heldAfter: bigint;
  withdrawalId: number | null;
  feeMicros: bigint | null;
  /** The settlement's or release's transaction, and the gas it spent in wei (withdrawal_settle / _release). */
  network: string | null;
  txHash: string | null;
  gasCostWei: string | null;
  idempotencyKey: string | null;
  reference: string | null;
  operators: string | null;
  createdAt: Date;
}

interface LedgerRow {
  id: string;
  reason: string;
  available_delta: string;
  held_delta: string;
  available_after: string;
  held_after: string;
  withdrawal_id: number | null;
  fee_micros: string | null;
  network: string | null;
  tx_hash: string | null;
  gas_cost_wei: string | null;
  idempotency_key: string | null;
  reference: string | null;
  operators: string | null;
  created_at: Date;
}

/**
 * A user's entries, newest first, below an entry id. The balances after each entry are the running sums of
 * the deltas in id order: an account opens at 0 and every movement writes its entry in the transaction of
 * the change (accounts.int.spec checks the books balance), so the sum up to an entry is the balance then.
 * A withdrawal's entries carry its fee, read from the withdrawal of the same partner.
 */
const PAGE = {
  name: 'ledger_page',
  text: `SELECT e.id::text AS id, e.reason, e.available_delta::text AS available_delta, e.held_delta::text AS held_delta,
                e.available_after::text AS available_after, e.held_after::text AS held_after, e.withdrawal_id,
                w.fee_micros::text AS fee_micros, w.network,
                CASE WHEN e.reason IN ('withdrawal_settle', 'withdrawal_release') THEN w.tx_hash END AS tx_hash,
                CASE WHEN e.reason IN ('withdrawal_settle', 'withdrawal_release') THEN w.gas_cost_wei::text END AS gas_cost_wei,
                e.idempotency_key, e.reference, e.operators, e.created_at
         FROM (SELECT l.*, sum(l.available_delta) OVER running AS available_after, sum(l.held_delta) OVER running AS held_after
               FROM ledger_entries l WHERE l.partner_id = $1 AND l.document = $2
               WINDOW running AS (ORDER BY l.id)) e
         LEFT JOIN withdrawals w ON w.id = e.withdrawal_id AND w.partner_id = e.partner_id
         WHERE $3::bigint IS NULL OR e.id < $3
         ORDER BY e.id DESC LIMIT $4`,
};

const typeOf = (reason: string): LedgerEntryType => {
  if (!(LEDGER_ENTRY_TYPES as readonly string[]).includes(reason)) throw new Error(`ledger entry with an unknown reason: ${reason}`);
  return reason as LedgerEntryType;
};

const lineOf = (row: LedgerRow): LedgerLine => ({
  id: Number(row.id),
  type: typeOf(row.reason),
  availableDelta: BigInt(row.available_delta),
  heldDelta: BigInt(row.held_delta),
  availableAfter: BigInt(row.available_after),
  heldAfter: BigInt(row.held_after),
  withdrawalId: row.withdrawal_id,
  feeMicros: row.fee_micros === null ? null : BigInt(row.fee_micros),
  network: row.network,
  txHash: row.tx_hash,
  gasCostWei: row.gas_cost_wei,
  idempotencyKey: row.idempotency_key,
  reference: row.reference,
  operators: row.operators,
  createdAt: row.created_at,
});

/** The ledger of the money (ledger_entries), read for the operator; written by the accounts and withdrawals repositories. */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: Database) {}

  async page(partnerId: PartnerId, document: string, { beforeId, take }: { beforeId?: number; take: number }): Promise<LedgerLine[]> {
    const { rows } = await this.db.query<LedgerRow>(PAGE, [partnerId, document, beforeId ?? null, take]);
    return rows.map(lineOf);
  }
}
