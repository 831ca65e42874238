/**
 * What the withdrawals service needs to pay on the local chains: each network's node, chain id and token,
 * the hot wallet's key file, and the local timings. One place for npm start, npm test, the bench and chaos.
 */
import { LocalChain, LocalNetwork } from './local-chains';

export interface LocalChainTimings {
  /** Confirmations that make a block final. */
  confirmations: number;
  /** How often the payout rounds run. */
  pollMs: number;
  /** A payout not mined this long is replaced. */
  replaceAfterMs: number;
}

/** npm start's chains: a block a second, final after 3, a round a second. */
export const DEV_CHAIN_TIMINGS: LocalChainTimings = { confirmations: 3, pollMs: 1_000, replaceAfterMs: 30_000 };
/** npm test's chains: blocks every 250 ms, final after 2, a round every 100 ms, replaced after 4 s. */
export const TEST_CHAIN_TIMINGS: LocalChainTimings = { confirmations: 2, pollMs: 100, replaceAfterMs: 4_000 };
export const DEV_BLOCK_TIME_MS = 1_000;
export const TEST_BLOCK_TIME_MS = 250;

export function chainAppEnv(chains: Record<LocalNetwork, LocalChain>, keyFile: string, t: LocalChainTimings): Record<string, string> {
  const env: Record<string, string> = { HOT_WALLET_SIGNER: 'key-file', HOT_WALLET_KEY_FILE: keyFile, CHAIN_POLL_MS: String(t.pollMs) };
  for (const [network, chain] of Object.entries(chains)) {
    env[`CHAIN_RPC_URL_${network}`] = chain.rpcUrl;
    env[`CHAIN_ID_${network}`] = String(chain.chainId);
    env[`USDT_CONTRACT_${network}`] = chain.tokenAddress;
    env[`CHAIN_FINALITY_${network}`] = String(t.confirmations);
    env[`CHAIN_REPLACE_AFTER_MS_${network}`] = String(t.replaceAfterMs);
    // A local chain's base fee falls to almost nothing on empty blocks: a 1 gwei tip, as on a quiet mainnet.
    env[`CHAIN_MIN_PRIORITY_FEE_GWEI_${network}`] = '1';
  }
  return env;
}
