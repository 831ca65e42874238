export const NETWORKS = ['ETH', 'MATIC'] as const;
export type Network = (typeof NETWORKS)[number];

export const FEE_CHOICES = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type FeeChoice = (typeof FEE_CHOICES)[number];

/**
 * Withdrawal states in the order a withdrawal goes through them; `failed` ends it early and releases the hold.
 * `pending_approval`: above its partner's approval threshold, it waits for an operator (docs/operations/approvals.md),
 * its amount held; approved it becomes `created`, rejected `failed` (`rejected_by_operator`). `reported`: settled, and
 * included in the operator's report to the Receita Federal marked filed (docs/operations/reports.md).
 */
export const WITHDRAWAL_STATES = ['pending_approval', 'created', 'sent', 'settled', 'reported', 'failed'] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/**
 * Why a `created` withdrawal is not being paid now (its read-back's `waiting_reason`); null while it is
 * simply in its turn. Each goes away by itself once the operator's cause is lifted.
 * - `awaiting_liquidity`: no hot wallet holds enough USDT (or gas) for it now; paid after a top-up.
 * - `network_fees_above_cap`: the network's fees cost more than the operator's cap now; paid once they fall.
 * - `operator_wallet_unavailable`: the token refuses the operator's hot wallets (paused, or listed).
 * - `operator_review`: every hot wallet of the network is stopped until the operator reviews a finding.
 */
export const WITHDRAWAL_WAITING_REASONS = [
  'awaiting_liquidity',
  'network_fees_above_cap',
  'operator_wallet_unavailable',
  'operator_review',
] as const;
export type WithdrawalWaitingReason = (typeof WITHDRAWAL_WAITING_REASONS)[number];

/** Bounds of one withdrawal, in micros: 0.01 USDT to 1,000,000 USDT. */
export const MIN_WITHDRAWAL_MICROS = 10_000;
export const MAX_WITHDRAWAL_MICROS = 1_000_000_000_000;
