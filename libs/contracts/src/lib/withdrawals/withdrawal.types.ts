export const NETWORKS = ['ETH', 'MATIC'] as const;
export type Network = (typeof NETWORKS)[number];

export const FEE_CHOICES = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type FeeChoice = (typeof FEE_CHOICES)[number];

/** Withdrawal states in the order a withdrawal goes through them; `failed` ends it early and releases the hold. */
export const WITHDRAWAL_STATES = ['created', 'sent', 'settled', 'failed'] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/** Bounds of one withdrawal, in micros: 0.01 USDT to 1,000,000 USDT. */
export const MIN_WITHDRAWAL_MICROS = 10_000;
export const MAX_WITHDRAWAL_MICROS = 1_000_000_000_000;
