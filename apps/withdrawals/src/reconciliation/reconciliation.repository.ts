import { Injectable } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database, statement } from '@partner/db';
import { toWithdrawal, Withdrawal, WithdrawalRow } from '../withdrawals/withdrawal.repository';

export interface Finding {
  id: number;
  network: Network;
  kind: string;
  withdrawalId: number | null;
  detail: string;
  createdAt: Date;
}

/** Once per (network, kind, withdrawal): a finding seen again by a later run is not a new one. */
const RECORD = statement(
  'finding_record',
  `INSERT INTO reconciliation_findings (network, kind, withdrawal_id, detail)
   SELECT $1, $2, $3, $4 WHERE NOT EXISTS (
     SELECT 1 FROM reconciliation_findings WHERE network = $1 AND kind = $2 AND withdrawal_id IS NOT DISTINCT FROM $3)
   RETURNING id`,
);
const LIST = statement('finding_list', 'SELECT * FROM reconciliation_findings ORDER BY id DESC LIMIT $1');
/** Final withdrawals that were paid from a wallet and not yet checked against the chain. */
const UNCHECKED = statement(
  'finding_unchecked',
  `SELECT * FROM withdrawals WHERE network = $1 AND state IN ('settled', 'failed') AND nonce IS NOT NULL AND reconciled_at IS NULL
   ORDER BY id LIMIT $2`,
);
const CHECKED = statement('finding_checked', 'UPDATE withdrawals SET reconciled_at = $2 WHERE id = ANY($1::int[])');
const SETTLED_TOTAL = statement(
  'finding_settled_total',
  `SELECT coalesce(sum(amount_micros), 0)::text AS micros, count(*)::int AS n FROM withdrawals WHERE network = $1 AND from_address = $2 AND state = 'settled'`,
);

/** What the reconciliation keeps: its findings, and which withdrawals it has checked. */
@Injectable()
export class ReconciliationRepository {
  constructor(private readonly db: Database) {}

  /** Records a finding; true when it is new. */
  async record(network: Network, kind: string, withdrawalId: number | null, detail: string): Promise<boolean> {
    const { rows } = await this.db.query(RECORD, [network, kind, withdrawalId, detail]);
    return rows.length === 1;
  }

  async list(limit: number): Promise<Finding[]> {
    const { rows } = await this.db.query<{
      id: string;
      network: Network;
      kind: string;
      withdrawal_id: number | null;
      detail: string;
      created_at: Date;
    }>(LIST, [limit]);
    return rows.map((r) => ({
      id: Number(r.id),
      network: r.network,
      kind: r.kind,
      withdrawalId: r.withdrawal_id,
      detail: r.detail,
      createdAt: r.created_at,
    }));
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
}
