import { FeeChoice } from '@partner/contracts';
import { FeeMarket } from '../hot-wallets/payout-rail';

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * The fees of a new payout: the choice's priority fee, and a max fee of twice the next base fee plus it
 * (the base fee can rise 12.5 % a block: twice covers six full blocks in a row), lowered to the cap.
 * Null when even the next block's base fee plus the priority fee is above the cap: the withdrawal waits
 * rather than overpays.
 */
export function feesFor(market: FeeMarket, choice: FeeChoice, capWei: bigint): Fees | null {
  const priority = market.priorityFeeWei[choice];
  if (market.nextBaseFeeWei + priority > capWei) return null;
  const wanted = 2n * market.nextBaseFeeWei + priority;
  return { maxFeePerGas: wanted < capWei ? wanted : capWei, maxPriorityFeePerGas: priority };
}

/** At least 10 % more, and at least one wei more (nodes refuse a replacement that raises either fee less). */
const bump = (wei: bigint): bigint => wei + wei / 10n + 1n;
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/**
 * The fees of a replacement (the same nonce): both fields raised by at least 10 % over the version it
 * replaces, and at least what a new payout would offer now; null when the cap leaves no room for that.
 */
export function replacementFees(previous: Fees, market: FeeMarket, choice: FeeChoice, capWei: bigint): Fees | null {
  const priority = max(bump(previous.maxPriorityFeePerGas), market.priorityFeeWei[choice]);
  const maxFee = max(bump(previous.maxFeePerGas), 2n * market.nextBaseFeeWei + priority);
  const capped = maxFee < capWei ? maxFee : capWei;
  if (capped < bump(previous.maxFeePerGas) || priority > capped) return null;
  return { maxFeePerGas: capped, maxPriorityFeePerGas: priority };
}

/**
 * The fees of a cancel at a stuck nonce (the operator's decision): both raised by at least 10 % over the
 * version it replaces and at least HIGH now, whatever the cap (a cancel costs 21,000 gas and unblocks a lane).
 */
export function cancelFees(previous: Fees, market: FeeMarket): Fees {
  const priority = max(bump(previous.maxPriorityFeePerGas), market.priorityFeeWei.HIGH);
  return { maxFeePerGas: max(bump(previous.maxFeePerGas), 2n * market.nextBaseFeeWei + priority), maxPriorityFeePerGas: priority };
}

/** Gas of a cancel: a plain transfer of no value to the wallet itself. */
export const CANCEL_GAS = 21_000n;
