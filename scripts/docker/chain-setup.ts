/**
 * `chain-setup`, the local chains' one-shot deploy step (docker-compose.local-chains.yml; never with real
 * chains): setUpLocalChain of scripts/chain/local-chains.ts, as for `npm start`'s nodes, on each network's node.
 * Compose runs it before every start of the withdrawals service: on a chain it set up it only checks the token
 * and funds a hot wallet that holds nothing (a new key).
 *
 * Environment: CHAIN_RPC_URL_ETH, CHAIN_RPC_URL_MATIC, HOT_WALLET_KEY_FILE (the Compose secrets, comma-separated
 * as the withdrawals service reads them: every wallet of the pool is funded; only the addresses are derived).
 * `--compile-only` compiles the token into the image at build time.
 */
import { compileTestUsdt, hotWalletAddress, LOCAL_CHAIN_IDS, LOCAL_NETWORKS, setUpLocalChain } from '../chain/local-chains';
import { runMain } from '../lib/main';

async function main(args: string[]): Promise<void> {
  if (args.includes('--compile-only')) {
    console.log(`chain-setup: TestUsdt compiled (solc ${compileTestUsdt().solcVersion})`);
    return;
  }
  const started = Date.now();
  const keyFiles = (process.env.HOT_WALLET_KEY_FILE ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter(Boolean);
  if (keyFiles.length === 0)
    throw new Error('HOT_WALLET_KEY_FILE must name the hot wallet key files, comma-separated (the Compose secrets)');
  const hotWallets = keyFiles.map(hotWalletAddress);
  const lines = await Promise.all(
    LOCAL_NETWORKS.map(async (network) => {
      const url = process.env[`CHAIN_RPC_URL_${network}`];
      if (!url) throw new Error(`CHAIN_RPC_URL_${network} must name the local ${network} node`);
      return `${network} (chain ${LOCAL_CHAIN_IDS[network]}, ${url}): ${await setUpLocalChain(network, url, hotWallets)}`;
    }),
  );
  for (const line of lines) console.log(`chain-setup: ${line}`);
  console.log(`chain-setup: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

runMain('chain-setup', () => main(process.argv.slice(2)));
