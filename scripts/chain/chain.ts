/** `npm run chain -- <command>`: the dev local chains by hand (docs/operations/payouts.md, "Local chains"). */
import { join } from 'node:path';
import { formatEther, formatUnits, parseEther, parseUnits } from 'viem';
import { runOnRequiredNode } from '../../offline/node/node-runtime';
import { runMain } from '../lib/main';
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

// npm start's key file and block time: chains started with others would not be reused by it.
const HOT_WALLET_KEY_FILE = process.env.HOT_WALLET_KEY_FILE ?? join(repoRoot(), '.cache', 'chain', 'hot-wallet.key');
const usage = 'usage: npm run chain -- start [--fresh] | stop | status | fund <ETH|MATIC> <usdt> [eth]';

async function main([command, ...rest]: string[]): Promise<void> {
  // Not made for a stop or a wrong command.
  const hotWallet = ['start', 'status', 'fund'].includes(command) ? ensureHotWalletKey(HOT_WALLET_KEY_FILE).address : '0x';
  if (command === 'start') {
    const chains = await ensureLocalChains({
      ports: DEV_CHAIN_PORTS,
      hotWallet,
      blockTimeMs: DEV_BLOCK_TIME_MS,
      fresh: rest.includes('--fresh'),
    });
    for (const c of Object.values(chains))
      if (!c.started) console.log(`chain: ${c.network} local node on ${c.rpcUrl} (chain id ${c.chainId}) already running`);
    console.log(`chain: hot wallet ${hotWallet} (key in ${HOT_WALLET_KEY_FILE})`);
  } else if (command === 'stop') {
    await stopLocalChains(DEV_CHAIN_PORTS);
    console.log('chain: stopped');
  } else if (command === 'status') {
    for (const network of LOCAL_NETWORKS) {
      const s = await localChainStatus(network, DEV_CHAIN_PORTS[network], hotWallet);
      console.log(
        s
          ? `${network}: pid ${s.pid} on ${s.rpcUrl}, chain id ${s.chainId}, block ${s.blockNumber}, USDT ${s.tokenAddress}; ` +
              `hot wallet ${hotWallet}: ${formatUnits(s.usdtMicros, 6)} USDT, ${formatEther(s.nativeWei)} native`
          : `${network}: not running on :${DEV_CHAIN_PORTS[network]}`,
      );
    }
  } else if (command === 'fund' && LOCAL_NETWORKS.includes(rest[0] as LocalNetwork) && rest[1] !== undefined) {
    const [network, usdt, eth = '0'] = rest as [LocalNetwork, string, string?];
    await fundFromOwner(network, DEV_CHAIN_PORTS[network], hotWallet, parseUnits(usdt, 6), parseEther(eth));
    console.log(`chain: ${network} hot wallet ${hotWallet} funded with ${usdt} USDT and ${eth} native`);
  } else throw new Error(usage);
}

runMain('chain', () => main(process.argv.slice(2)));
