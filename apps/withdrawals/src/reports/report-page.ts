import { WithdrawalReportPage, WithdrawalReportRow } from '@partner/contracts';
import { WithdrawalReport } from './withdrawal-report.repository';

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/**
 * What the Receita's report of an operation asks that the rows do not carry: the operation's value and its fee in
 * reais (IN RFB 1.888, art. 7; ADR 0033, "What the report lacks"). A price source would fill them.
 */
export const REPORT_LACKS = ['brl_value', 'brl_fee'];

/** A report and a page of its rows, as the operator API shows them. */
export function toReportPage(r: WithdrawalReport, rows: WithdrawalReportRow[], nextCursor: number | null): WithdrawalReportPage {
  return {
    id: r.id,
    from: seconds(r.from),
    to: seconds(r.to),
    created_at: seconds(r.createdAt),
    created_by: r.createdBy,
    withdrawals: r.withdrawals,
    filed_at: r.filedAt === null ? null : seconds(r.filedAt),
    filed_by: r.filedBy,
    receipt: r.receipt,
    lacks: REPORT_LACKS,
    rows,
    next_cursor: nextCursor,
  };
}
