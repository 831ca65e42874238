import { Injectable } from '@nestjs/common';
import { FindingStatus, Network } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';
import { toWithdrawal, Withdrawal, WithdrawalRow } from '../withdrawals/withdrawal.repository';

export interface Finding {
  id: number;
  network: Network;
  kind: string;
  withdrawalId: number | null;
  subject: string;
  detail: string;
  status: FindingStatus;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  note: string | null;
  createdAt: Date;
}

interface FindingRow {
  id: string;
  network: Network;
  kind: string;
  withdrawal_id: number | null;
  subject: string;
  detail: string;
  status: FindingStatus;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
  resolved_at: Date | null;
  resolved_by: string | null;
  note: string | null;
  created_at: Date;
}

const toFinding = (r: FindingRow): Finding => ({
  id: Number(r.id),
  network: r.network,
  kind: r.kind,
  withdrawalId: r.withdrawal_id,
  subject: r.subject,
  detail: r.detail,
  status: r.status,
  acknowledgedAt: r.acknowledged_at,
  acknowledgedBy: r.acknowledged_by,
  resolvedAt: r.resolved_at,
  resolvedBy: r.resolved_by,
  note: r.note,
  createdAt: r.created_at,
});

const LIST = statement(
  'finding_list',
  'SELECT * FROM reconciliation_findings WHERE $2::text IS NULL OR status = $2 ORDER BY id DESC LIMIT $1',
);
const LOCK = statement('finding_lock', 'SELECT * FROM reconciliation_findings WHERE id = $1 FOR UPDATE');
const ACKNOWLEDGE = statement(
  'finding_acknowledge',
  `UPDATE reconciliation_findings SET status = 'acknowledged', acknowledged_at = $2, acknowledged_by = $3,
     note = concat_ws(E'\\n', note, $4::text) WHERE id = $1 RETURNING *`,
);
const RESOLVE = statement(
  'finding_resolve',
  `UPDATE reconciliation_findings SET status = 'resolved', resolved_at = $2, resolved_by = $3,
     note = concat_ws(E'\\n', note, $4::text) WHERE id = $1 RETURNING *`,
);
/** Final withdrawals that were paid from a wallet and not yet checked against the chain. */
const UNCHECKED = statement(
  'finding_unchecked',
  `SELECT * FROM withdrawals WHERE network = $1 AND state IN ('settled', 'reported', 'failed') AND nonce IS NOT NULL AND reconciled_at IS NULL
   ORDER BY id LIMIT $2`,
);
const CHECKED = statement('finding_checked', 'UPDATE withdrawals SET reconciled_at = $2 WHERE id = ANY($1::int[])');
const SETTLED_TOTAL = statement(
  'finding_settled_total',
  `SELECT coalesce(sum(amount_micros), 0)::text AS micros, count(*)::int AS n FROM withdrawals WHERE network = $1 AND from_address = $2 AND state IN ('settled', 'reported')`,
);
/** The withdrawals of `from` whose signed versions carry one of these hashes: what explains a Transfer. */
const PAID_BY = statement(
  'finding_paid_by',
  `SELECT DISTINCT p.tx_hash, w.address, w.amount_micros::text AS amount_micros FROM payout_transactions p
   JOIN withdrawals w ON w.id = p.withdrawal_id
   WHERE p.network = $1 AND p.from_address = $2 AND p.tx_hash = ANY($3::text[])`,
);

/**
 * What the reconciliation keeps: its findings' workflow, and which withdrawals it has checked. A finding is
 * recorded through the payouts' FindingRepository (the payouts record findings too).
 */
@Injectable()
export class ReconciliationRepository {
  constructor(private readonly db: Database) {}

  async list(limit: number, status?: FindingStatus): Promise<Finding[]> {
    return (await this.db.query<FindingRow>(LIST, [limit, status ?? null])).rows.map(toFinding);
  }

  /** The finding locked until `tx` ends (one operator's step at a time), or null. */
  async lock(tx: Transaction, id: number): Promise<Finding | null> {
    const { rows } = await tx.query<FindingRow>(LOCK, [id]);
    return rows[0] ? toFinding(rows[0]) : null;
  }

  async acknowledge(tx: Transaction, id: number, by: string, note: string, now: Date): Promise<Finding> {
    return toFinding((await tx.query<FindingRow>(ACKNOWLEDGE, [id, now, by, note])).rows[0]);
  }

  async resolve(tx: Transaction, id: number, by: string, note: string, now: Date): Promise<Finding> {
    return toFinding((await tx.query<FindingRow>(RESOLVE, [id, now, by, note])).rows[0]);
  }

  async unchecked(network: Network, limit: number): Promise<Withdrawal[]> {
    return (await this.db.query<WithdrawalRow>(UNCHECKED, [network, limit])).rows.map(toWithdrawal);
  }

  async markChecked(ids: number[], now: Date): Promise<void> {
    if (ids.length > 0) await this.db.query(CHECKED, [ids, now]);
  }

  /** USDT micros settled from `from` on `network`, and how many withdrawals. */
  async settledTotal(network: Network, from: string): Promise<{ micros: bigint; count: number }> {
    const [r] = (await this.db.query<{ micros: string; n: number }>(SETTLED_TOTAL, [network, from.toLowerCase()])).rows;
    return { micros: BigInt(r.micros), count: r.n };
  }

  /** By transaction hash: the destination and amount of the withdrawal of ours each hash pays (absent: none). */
  async paidBy(network: Network, from: string, txHashes: string[]): Promise<Map<string, { address: string; micros: bigint }[]>> {
    const paid = new Map<string, { address: string; micros: bigint }[]>();
    if (txHashes.length === 0) return paid;
    const { rows } = await this.db.query<{ tx_hash: string; address: string; amount_micros: string }>(PAID_BY, [
      network,
      from.toLowerCase(),
      txHashes.map((h) => h.toLowerCase()),
    ]);
    for (const r of rows) {
      const key = r.tx_hash.toLowerCase();
      paid.set(key, [...(paid.get(key) ?? []), { address: r.address.toLowerCase(), micros: BigInt(r.amount_micros) }]);
    }
    return paid;
  }
}
