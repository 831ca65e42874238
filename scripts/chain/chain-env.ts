/**
 * What the withdrawals service needs to pay on the local chains: each network's node, chain id and token,
 * the hot wallets' key files, and the local timings. One place for npm start, npm test, the bench and chaos.
 */
import { join } from 'node:path';
import { repoRoot } from '../lib/services';
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

/**
 * npm start's and `npm run chain`'s hot wallet pool: the files of HOT_WALLET_KEY_FILE (a comma list), else two
 * keys generated under `.cache/chain/`. A running chain funds a wallet new to it (scripts/chain/local-chains.ts).
 */
export function devHotWalletKeyFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const given = (env.HOT_WALLET_KEY_FILE ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter(Boolean);
  return given.length > 0 ? given : ['hot-wallet.key', 'hot-wallet-2.key'].map((file) => join(repoRoot(), '.cache', 'chain', file));
}

/** The withdrawals service's chain settings; `keyFiles`, its hot wallet pool (HOT_WALLET_KEY_FILE, comma-separated). */
export function chainAppEnv(
  chains: Record<LocalNetwork, LocalChain>,
  keyFiles: readonly string[],
  t: LocalChainTimings,
): Record<string, string> {
  if (keyFiles.length === 0) throw new Error('no hot wallet key file given');
  const comma = keyFiles.find((file) => file.includes(','));
  if (comma) throw new Error(`hot wallet key file ${comma}: a comma in its path would split it in HOT_WALLET_KEY_FILE`);
  const env: Record<string, string> = {
    HOT_WALLET_SIGNER: 'key-file',
    HOT_WALLET_KEY_FILE: keyFiles.join(','),
    CHAIN_POLL_MS: String(t.pollMs),
  };
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
