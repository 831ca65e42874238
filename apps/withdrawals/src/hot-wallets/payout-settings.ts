import { Network, NETWORKS } from '@partner/contracts';
import { parseGwei } from 'viem';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { Address } from './payout-rail';

/**
 * Payouts of one wallet signed and not final at most (a round follows all of them): signing waits above it,
 * so that a backlog stays unsigned in the database, in order, rather than signed ahead of what is followed.
 */
export const MAX_OPEN_PAYOUTS = 2_000;

/** One network's payout settings, read off the configuration once. */
export interface NetworkSettings {
  network: Network;
  rpcUrl: string;
  /** The second node, when one is configured (ConfirmingRail). */
  rpcUrl2?: string;
  chainId: number;
  token: Address;
  finality: 'finalized' | number;
  maxHeadAgeS: number;
  maxFeeWei: bigint;
  minPriorityFeeWei: bigint;
  replaceAfterMs: number;
  lowUsdtMicros: bigint;
  lowNativeWei: bigint;
  /** The settings' names, for messages that tell the operator which one to fix. */
  names: { rpcUrl: string; chainId: string; token: string };
}

export function networkSettings(c: WithdrawalsConfig): Record<Network, NetworkSettings> {
  const of = (network: Network): NetworkSettings => {
    const pick = <K extends string>(prefix: K) => c[`${prefix}_${network}` as keyof WithdrawalsConfig] as never;
    const finality: string = pick('CHAIN_FINALITY');
    return {
      network,
      rpcUrl: pick('CHAIN_RPC_URL'),
      rpcUrl2: pick('CHAIN_RPC_URL_2'),
      chainId: pick('CHAIN_ID'),
      token: pick('USDT_CONTRACT'),
      finality: finality === 'finalized' ? 'finalized' : Number(finality),
      maxHeadAgeS: pick('CHAIN_MAX_HEAD_AGE_S'),
      maxFeeWei: parseGwei(pick('CHAIN_MAX_FEE_GWEI')),
      minPriorityFeeWei: parseGwei(pick('CHAIN_MIN_PRIORITY_FEE_GWEI')),
      replaceAfterMs: pick('CHAIN_REPLACE_AFTER_MS'),
      lowUsdtMicros: BigInt(c.HOT_WALLET_LOW_USDT_MICROS),
      lowNativeWei: parseGwei(c.HOT_WALLET_LOW_NATIVE_GWEI),
      names: { rpcUrl: `CHAIN_RPC_URL_${network}`, chainId: `CHAIN_ID_${network}`, token: `USDT_CONTRACT_${network}` },
    };
  };
  return Object.fromEntries(NETWORKS.map((n) => [n, of(n)])) as Record<Network, NetworkSettings>;
}
