import { MinedReceipt } from '../hot-wallets/payout-rail';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The one USDT transfer a paid withdrawal's receipt must hold. */
export interface ExpectedTransfer {
  token: string;
  from: string;
  to: string;
  micros: bigint;
}

/**
 * Why `r` is not exactly one USDT `Transfer` of exactly `e` (from the hot wallet to the withdrawal's
 * address), or undefined when it is. Status 1 alone proves nothing: a token may succeed and move another
 * amount, and a lying node may say anything. Settlement and reconciliation both hold receipts to it.
 */
export function transferMismatch(r: MinedReceipt, e: ExpectedTransfer): string | undefined {
  const ours = r.transfers.filter((t) => same(t.token, e.token));
  const exact = ours.filter((t) => same(t.from, e.from) && same(t.to, e.to) && t.value === e.micros);
  if (ours.length === 1 && exact.length === 1) return undefined;
  return `${r.txHash} moved ${ours.map((t) => `${t.value} from ${t.from} to ${t.to}`).join('; ') || 'nothing'}; the books say ${e.micros} to ${e.to}`;
}

/** Whether USDT moved in `r`: a failed (reverted) payout must have moved none. */
export const usdtMoved = (r: MinedReceipt, token: string): boolean => r.transfers.some((t) => same(t.token, token));
