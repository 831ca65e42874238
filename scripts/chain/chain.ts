/**
 * `npm run chain -- <command>`: the dev local chains (scripts/chain/README.md).
 *   start [--fresh]                 ETH on :8545 and MATIC on :8546, blocks every second, the hot wallet
 *                                   (HOT_WALLET_KEY_FILE, else .cache/chain/hot-wallet.key, created once)
 *                                   funded; reuses running ones (--fresh: new chains)
 *   stop                            stops both (everything on them is gone)
 *   status                          each node: pid, chain id, block, token, the hot wallet's balances
 *   fund <ETH|MATIC> <usdt> [eth]   issues <usdt> USDT to the hot wallet and sends it [eth] of the native coin
 */
import { join } from 'node:path';
import { Address, formatEther, formatUnits, parseEther, parseUnits } from 'viem';
import { runOnRequiredNode } from '../../offline/node/node-runtime';
import { repoRoot } from '../lib/services';
import { DEV_BLOCK_TIME_MS } from './chain-env';
import {
  DEV_CHAIN_PORTS,
  ensureHotWalletKey,
  ensureLocalChains,
  fundFromOwner,
  LOCAL_NETWORKS,
  LocalNetwork,
  localChainStatus,
  stopLocalChains,
} from './local-chains';

runOnRequiredNode();

// The same key file and block time as `npm start` (scripts/stack/start.ts): a chain started with others
// would not be reused by it, and a restarted chain is a new one.
const HOT_WALLET_KEY_FILE = process.env.HOT_WALLET_KEY_FILE ?? join(repoRoot(), '.cache', 'chain', 'hot-wallet.key');

const isNetwork = (name: string | undefined): name is LocalNetwork => (LOCAL_NETWORKS as readonly (string | undefined)[]).includes(name);

const usage = 'usage: npm run chain -- start [--fresh] | stop | status | fund <ETH|MATIC> <usdt> [eth]';

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  const hotWallet = (): Address => ensureHotWalletKey(HOT_WALLET_KEY_FILE).address;
  switch (command) {
    case 'start': {
      const chains = await ensureLocalChains({
        ports: DEV_CHAIN_PORTS,
        hotWallet: hotWallet(),
        blockTimeMs: DEV_BLOCK_TIME_MS,
        fresh: rest.includes('--fresh'),
      });
      for (const chain of Object.values(chains)) {
        if (!chain.started)
          console.log(`chain: ${chain.network} local node on ${chain.rpcUrl} (chain id ${chain.chainId}) already running`);
      }
      console.log(`chain: hot wallet ${hotWallet()} (key in ${HOT_WALLET_KEY_FILE})`);
      return;
    }
    case 'stop':
      await stopLocalChains(DEV_CHAIN_PORTS);
      console.log('chain: stopped');
      return;
    case 'status': {
      const holder = hotWallet();
      for (const network of LOCAL_NETWORKS) {
        const port = DEV_CHAIN_PORTS[network];
        const s = await localChainStatus(network, port, holder);
        console.log(
          s
            ? `${network}: pid ${s.pid} on ${s.rpcUrl}, chain id ${s.chainId}, block ${s.blockNumber}, USDT ${s.tokenAddress}; ` +
                `hot wallet ${holder}: ${formatUnits(s.usdtMicros, 6)} USDT, ${formatEther(s.nativeWei)} native`
            : `${network}: not running on :${port}`,
        );
      }
      return;
    }
    case 'fund': {
      const [network, usdt, eth = '0'] = rest;
      if (!isNetwork(network) || usdt === undefined) throw new Error(usage);
      const holder = hotWallet();
      await fundFromOwner(network, DEV_CHAIN_PORTS[network], holder, parseUnits(usdt, 6), parseEther(eth));
      console.log(`chain: ${network} hot wallet ${holder} funded with ${usdt} USDT and ${eth} native`);
      return;
    }
    default:
      throw new Error(usage);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
