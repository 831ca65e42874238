import { Injectable } from '@nestjs/common';
import { Beneficiary, WithdrawalReportRow } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';
import { toWithdrawal, Withdrawal, WithdrawalRow } from '../withdrawals/withdrawal.repository';

/** A report as kept (withdrawals.withdrawal_reports). */
export interface WithdrawalReport {
  id: string;
  from: Date;
  to: Date;
  withdrawals: number;
  createdAt: Date;
  createdBy: string;
  filedAt: Date | null;
  filedBy: string | null;
  receipt: string | null;
}

interface ReportRow {
  id: string;
  period_from: Date;
  period_to: Date;
  withdrawals: number;
  created_at: Date;
  created_by: string;
  filed_at: Date | null;
  filed_by: string | null;
  receipt: string | null;
}

const toReport = (r: ReportRow): WithdrawalReport => ({
  id: r.id,
  from: r.period_from,
  to: r.period_to,
  withdrawals: r.withdrawals,
  createdAt: r.created_at,
  createdBy: r.created_by,
  filedAt: r.filed_at,
  filedBy: r.filed_by,
  receipt: r.receipt,
});

/**
 * A report with its withdrawals: the ones settled in [from, to) and in no filed report (still `settled`), as they
 * are now. By settlement time (index withdrawals_settled_idx).
 */
const CREATE = statement(
  'withdrawal_report_create',
  `WITH items AS (
     INSERT INTO withdrawal_report_items (report_id, withdrawal_id)
     SELECT $1, id FROM withdrawals WHERE state = 'settled' AND settled_at >= $2 AND settled_at < $3
     RETURNING 1)
   INSERT INTO withdrawal_reports (id, period_from, period_to, withdrawals, created_at, created_by)
   SELECT $1, $2, $3, (SELECT count(*) FROM items), $4, $5
   RETURNING withdrawals`,
);
const FIND = statement('withdrawal_report_find', 'SELECT * FROM withdrawal_reports WHERE id = $1');
const LOCK = statement('withdrawal_report_lock', 'SELECT * FROM withdrawal_reports WHERE id = $1 FOR UPDATE');
const ROWS = statement(
  'withdrawal_report_rows',
  `SELECT w.id, w.settled_at, w.partner_id, w.document, w.network, w.amount_micros::text AS amount_micros, w.fee_micros::text AS fee_micros,
          w.address, w.tx_hash, w.beneficiary
   FROM withdrawal_report_items i JOIN withdrawals w ON w.id = i.withdrawal_id
   WHERE i.report_id = $1 AND i.withdrawal_id > $2 ORDER BY i.withdrawal_id LIMIT $3`,
);
/** Its withdrawals still `settled`, moved to `reported` in this report. */
const REPORT_WITHDRAWALS = statement(
  'withdrawal_report_move',
  `UPDATE withdrawals w SET state = 'reported', report_id = $1, updated_at = $2
   FROM withdrawal_report_items i WHERE i.report_id = $1 AND w.id = i.withdrawal_id AND w.state = 'settled'
   RETURNING w.*`,
);
/** Those of its withdrawals no longer `settled` (another filed report took them): why it cannot be filed. */
const NOT_SETTLED = statement(
  'withdrawal_report_not_settled',
  `SELECT w.id, w.state, w.report_id FROM withdrawal_report_items i JOIN withdrawals w ON w.id = i.withdrawal_id
   WHERE i.report_id = $1 AND w.state <> 'settled' ORDER BY w.id LIMIT 10`,
);
const MARK_FILED = statement(
  'withdrawal_report_filed',
  'UPDATE withdrawal_reports SET filed_at = $2, filed_by = $3, receipt = $4 WHERE id = $1 AND filed_at IS NULL RETURNING *',
);

/** Reports to the Receita Federal (withdrawals.withdrawal_reports and their items). Operator data: across partners. */
@Injectable()
export class WithdrawalReportRepository {
  constructor(private readonly db: Database) {}

  /** A new report of the period: how many withdrawals it holds. */
  async create(tx: Transaction, r: { id: string; from: Date; to: Date; by: string; now: Date }): Promise<number> {
    const { rows } = await tx.query<{ withdrawals: number }>(CREATE, [r.id, r.from, r.to, r.now, r.by]);
    return rows[0].withdrawals;
  }

  async find(id: string): Promise<WithdrawalReport | null> {
    const { rows } = await this.db.query<ReportRow>(FIND, [id]);
    return rows[0] ? toReport(rows[0]) : null;
  }

  async lock(tx: Transaction, id: string): Promise<WithdrawalReport | null> {
    const { rows } = await tx.query<ReportRow>(LOCK, [id]);
    return rows[0] ? toReport(rows[0]) : null;
  }

  /** A page of its rows, by withdrawal id, after `after`. */
  async rows(id: string, after: number, limit: number): Promise<WithdrawalReportRow[]> {
    const { rows } = await this.db.query<{
      id: number;
      settled_at: Date;
      partner_id: string;
      document: string;
      network: string;
      amount_micros: string;
      fee_micros: string;
      address: string;
      tx_hash: string;
      beneficiary: Beneficiary | null;
    }>(ROWS, [id, after, limit]);
    return rows.map((r) => ({
      withdrawal_id: r.id,
      settled_at: r.settled_at.toISOString(),
      partner_id: r.partner_id,
      document: r.document.trimEnd(),
      asset: 'USDT',
      network: r.network,
      usdt_micros: Number(r.amount_micros),
      fee_usdt_micros: Number(r.fee_micros),
      destination: r.address,
      tx_hash: r.tx_hash,
      beneficiary: r.beneficiary,
    }));
  }

  /** Moves its withdrawals still settled to `reported` (in this report); the ones moved. */
  async reportWithdrawals(tx: Transaction, id: string, now: Date): Promise<Withdrawal[]> {
    return (await tx.query<WithdrawalRow>(REPORT_WITHDRAWALS, [id, now])).rows.map(toWithdrawal);
  }

  /** Up to ten of its withdrawals no longer settled, with the state and report they are in. */
  async notSettled(tx: Transaction, id: string): Promise<{ id: number; state: string; report_id: string | null }[]> {
    return (await tx.query<{ id: number; state: string; report_id: string | null }>(NOT_SETTLED, [id])).rows;
  }

  async markFiled(tx: Transaction, id: string, by: string, receipt: string, now: Date): Promise<WithdrawalReport | null> {
    const { rows } = await tx.query<ReportRow>(MARK_FILED, [id, now, by, receipt]);
    return rows[0] ? toReport(rows[0]) : null;
  }
}
