import { WithdrawalReportRow } from '@partner/contracts';

/** The beneficiary's fields, as the withdrawal request gives them (docs/api.md: "USDT withdrawals"). */
const BENEFICIARY = ['wallet', 'vasp_name', 'name', 'document', 'first_party'] as const;

/** The CSV's columns, in order: the row's fields, then the beneficiary's flattened. */
export const REPORT_CSV_COLUMNS = [
  'withdrawal_id',
  'settled_at',
  'partner_id',
  'document',
  'asset',
  'network',
  'usdt_micros',
  'fee_usdt_micros',
  'destination',
  'tx_hash',
  ...BENEFICIARY.map((f) => `beneficiary_${f}`),
] as const;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const field = (v: string | number | boolean | null | undefined): string => {
  const text = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** A report's rows as CSV (RFC 4180, CRLF line ends), with its header line. */
export function reportCsv(rows: WithdrawalReportRow[]): string {
  const lines = rows.map((r) =>
    [
      r.withdrawal_id,
      r.settled_at,
      r.partner_id,
      r.document,
      r.asset,
      r.network,
      r.usdt_micros,
      r.fee_usdt_micros,
      r.destination,
      r.tx_hash,
      ...BENEFICIARY.map((f) => r.beneficiary?.[f] ?? null),
    ]
      .map(field)
      .join(','),
  );
  return [REPORT_CSV_COLUMNS.join(','), ...lines].map((l) => `${l}\r\n`).join('');
}
