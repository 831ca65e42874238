import { FeeChoice, Network } from '@partner/contracts';

/**
 * Network fee charged per withdrawal, in USDT micros, by network and priority. Held together with the
 * amount when the withdrawal is created (docs/api.md: "USDT withdrawals", Fees). Polygon is two orders of magnitude cheaper.
 */
export const FEE_SCHEDULE: Record<Network, Record<FeeChoice, bigint>> = {
  ETH: { LOW: 2_000_000n, MEDIUM: 3_500_000n, HIGH: 6_000_000n },
  MATIC: { LOW: 20_000n, MEDIUM: 50_000n, HIGH: 100_000n },
};

export const feeFor = (network: Network, choice: FeeChoice): bigint => FEE_SCHEDULE[network][choice];
