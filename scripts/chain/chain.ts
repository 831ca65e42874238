/** `npm run chain -- <command>`: the dev local chains by hand (docs/operations/payouts.md, "Local chains"). */
import { Address, formatEther, formatUnits, getAddress, isAddress, parseEther, parseUnits } from 'viem';
import { runMain } from '../lib/main';
import { DEV_BLOCK_TIME_MS, devHotWalletKeyFiles } from './chain-env';
import {
  DEV_CHAIN_PORTS,
  ensureHotWalletKeys,
  ensureLocalChains,
  fundFromOwner,
  LOCAL_NETWORKS,
  LocalNetwork,
  localChainStatus,
  stopLocalChains,
} from './local-chains';

const usage =
  'usage: npm run chain -- start [--fresh] | stop | status | fund <ETH|MATIC> <usdt> [eth] [--wallet <address>]\n' +
  '  fund: every hot wallet of the pool (HOT_WALLET_KEY_FILE, else .cache/chain/hot-wallet.key and hot-wallet-2.key), or the one --wallet names';

/** `args` without `--wallet <address>`, and that address (checksummed) when given. */
function walletOption(args: string[]): { rest: string[]; wallet?: Address } {
  const at = args.indexOf('--wallet');
  if (at < 0) return { rest: args };
  const value = args[at + 1];
  if (value === undefined || !isAddress(value)) throw new Error(`--wallet needs an address (0x + 40 hex digits)\n${usage}`);
  return { rest: [...args.slice(0, at), ...args.slice(at + 2)], wallet: getAddress(value) };
}

async function main([command, ...args]: string[]): Promise<void> {
  // npm start's key files and block time: chains started with others would not be reused by it. Keys not made for
  // a stop or a wrong command.
  const pool = ['start', 'status', 'fund'].includes(command) ? ensureHotWalletKeys(devHotWalletKeyFiles()) : [];
  const hotWallets = pool.map((w) => w.address);
  if (command === 'start') {
    const chains = await ensureLocalChains({
      ports: DEV_CHAIN_PORTS,
      hotWallets,
      blockTimeMs: DEV_BLOCK_TIME_MS,
      fresh: args.includes('--fresh'),
    });
    for (const c of Object.values(chains))
      if (!c.started) console.log(`chain: ${c.network} local node on ${c.rpcUrl} (chain id ${c.chainId}) already running`);
    for (const w of pool) console.log(`chain: hot wallet ${w.address} (key in ${w.keyFile})`);
  } else if (command === 'stop') {
    await stopLocalChains(DEV_CHAIN_PORTS);
    console.log('chain: stopped');
  } else if (command === 'status') {
    for (const network of LOCAL_NETWORKS) {
      const s = await localChainStatus(network, DEV_CHAIN_PORTS[network], hotWallets);
      if (!s) {
        console.log(`${network}: not running on :${DEV_CHAIN_PORTS[network]}`);
        continue;
      }
      console.log(`${network}: pid ${s.pid} on ${s.rpcUrl}, chain id ${s.chainId}, block ${s.blockNumber}, USDT ${s.tokenAddress}`);
      for (const w of s.wallets)
        console.log(`  hot wallet ${w.address}: ${formatUnits(w.usdtMicros, 6)} USDT, ${formatEther(w.nativeWei)} native`);
    }
  } else if (command === 'fund') {
    const { rest, wallet } = walletOption(args);
    if (!LOCAL_NETWORKS.includes(rest[0] as LocalNetwork) || rest[1] === undefined || rest.length > 3) throw new Error(usage);
    const [network, usdt, eth = '0'] = rest as [LocalNetwork, string, string?];
    const to = wallet ? [wallet] : hotWallets;
    await fundFromOwner(network, DEV_CHAIN_PORTS[network], to, parseUnits(usdt, 6), parseEther(eth));
    for (const address of to) console.log(`chain: ${network} hot wallet ${address} funded with ${usdt} USDT and ${eth} native`);
  } else throw new Error(usage);
}

runMain('chain', () => main(process.argv.slice(2)));
