/**
 * `chain-setup`, the local chains' one-shot deploy step (docker-compose.local-chains.yml; never with real
 * chains), as scripts/chain/local-chains.ts does for `npm start`'s nodes: on each network's node it deploys the
 * test USDT as Hardhat's public account #0 (so at 0x5FbDB2315678afecb367f032d93F642f64180aa3, the
 * USDT_CONTRACT_* the stack is given), blacklists 0x…dEaD and funds the hot wallet (10,000,000 USDT, 100 ETH or
 * POL). Compose runs it before every start of the withdrawals service: on a chain it set up it only checks the
 * token and funds a hot wallet that holds nothing (a new key).
 *
 * Environment: CHAIN_RPC_URL_ETH, CHAIN_RPC_URL_MATIC, HOT_WALLET_KEY_FILE (the Compose secret: only the address
 * is derived). `--compile-only` compiles the token into the image at build time.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Address,
  Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getContractAddress,
  Hash,
  Hex,
  http,
  parseAbi,
  PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  BLACKLISTED_DESTINATION,
  compileTestUsdt,
  CompiledToken,
  DEFAULT_NATIVE_WEI,
  DEFAULT_USDT_MICROS,
  LOCAL_CHAIN_IDS,
  LOCAL_NETWORKS,
  LOCAL_OWNER_KEY,
  LocalNetwork,
} from '../chain/local-chains';

/** Where the owner's first deployment lands on a new chain: what USDT_CONTRACT_* say in local-chain mode. */
export const LOCAL_TOKEN_ADDRESS: Address = getContractAddress({ from: privateKeyToAccount(LOCAL_OWNER_KEY).address, nonce: 0n });

const tokenAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function balanceOf(address who) view returns (uint256)',
  'function isBlackListed(address who) view returns (bool)',
  'function issue(uint256 amount)',
  'function transfer(address to, uint256 value)',
  'function addBlackList(address evilUser)',
]);

// Calls into a contract sent before it is mined cannot be estimated: a fixed limit, well above what each needs.
const CALL_GAS = 150_000n;
const READY_DEADLINE_MS = 60_000;

function hotWalletAddress(): Address {
  const file = process.env.HOT_WALLET_KEY_FILE;
  if (!file) throw new Error('HOT_WALLET_KEY_FILE must name the hot wallet key file (the Compose secret)');
  const key = readFileSync(file, 'utf8').trim();
  // The message names the file, never what is in it.
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`HOT_WALLET_KEY_FILE ${file} does not hold a private key (0x + 64 hex digits)`);
  return privateKeyToAccount(key as Hex).address;
}

/** Waits until the node answers; one that serves another chain than its network's local one fails at once. */
async function waitForChain(network: LocalNetwork, client: PublicClient, rpcUrl: string): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  let id: number | undefined;
  while (id === undefined) {
    id = await client.getChainId().catch(() => undefined);
    if (id === undefined && Date.now() > deadline)
      throw new Error(`${network}: no node answers at ${rpcUrl} after ${READY_DEADLINE_MS / 1000} s`);
    if (id === undefined) await sleep(500);
  }
  if (id !== LOCAL_CHAIN_IDS[network])
    throw new Error(`${rpcUrl} serves chain ${id}, not the local ${network} chain (${LOCAL_CHAIN_IDS[network]})`);
}

type OwnerTx = { to: Address; data?: Hex; value?: bigint } | { deploy: CompiledToken };

/** Deploys (or checks) the token on one network's node and funds the hot wallet there; returns what it did. */
async function setUp(network: LocalNetwork, rpcUrl: string, hotWallet: Address): Promise<string> {
  const symbol = network === 'ETH' ? 'ETH' : 'POL';
  const chain: Chain = defineChain({
    id: LOCAL_CHAIN_IDS[network],
    name: `local ${network}`,
    nativeCurrency: { name: network === 'ETH' ? 'Ether' : 'POL', symbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0, timeout: 10_000 });
  const client = createPublicClient({ chain, transport, pollingInterval: 200 });
  const owner = createWalletClient({ account: privateKeyToAccount(LOCAL_OWNER_KEY), chain, transport });
  await waitForChain(network, client, rpcUrl);
  const token = { address: LOCAL_TOKEN_ADDRESS, abi: tokenAbi } as const;
  const call = (data: Hex): OwnerTx => ({ to: LOCAL_TOKEN_ADDRESS, data });

  const code = await client.getCode({ address: LOCAL_TOKEN_ADDRESS });
  const deployed = code !== undefined && code !== '0x';
  let nonce = await client.getTransactionCount({ address: owner.account.address, blockTag: 'pending' });
  const txs: OwnerTx[] = [];
  let done: string;
  if (!deployed) {
    if (nonce !== 0)
      throw new Error(
        `${network}: the owner has sent ${nonce} transactions on ${rpcUrl} but no token is at ${LOCAL_TOKEN_ADDRESS}: ` +
          'a chain this step did not set up (remove the stack, npm run compose:down, and start it again)',
      );
    txs.push(
      { deploy: compileTestUsdt() },
      call(encodeFunctionData({ abi: tokenAbi, functionName: 'addBlackList', args: [BLACKLISTED_DESTINATION] })),
    );
    done = `TestUsdt deployed at ${LOCAL_TOKEN_ADDRESS}, 0x…dEaD blacklisted`;
  } else {
    const [decimals, blacklisted] = await Promise.all([
      client.readContract({ ...token, functionName: 'decimals' }),
      client.readContract({ ...token, functionName: 'isBlackListed', args: [BLACKLISTED_DESTINATION] }),
    ]);
    if (decimals !== 6 || !blacklisted)
      throw new Error(`${network}: the contract at ${LOCAL_TOKEN_ADDRESS} is not the test USDT this step deploys`);
    done = `TestUsdt already at ${LOCAL_TOKEN_ADDRESS}`;
  }
  // A hot wallet that holds nothing (a new chain, or a new key) gets the usual funds; one that has been paying keeps what it has.
  const [usdt, native] = deployed
    ? await Promise.all([
        client.readContract({ ...token, functionName: 'balanceOf', args: [hotWallet] }),
        client.getBalance({ address: hotWallet }),
      ])
    : [0n, 0n];
  if (usdt === 0n)
    txs.push(
      call(encodeFunctionData({ abi: tokenAbi, functionName: 'issue', args: [DEFAULT_USDT_MICROS] })),
      call(encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [hotWallet, DEFAULT_USDT_MICROS] })),
    );
  if (native === 0n) txs.push({ to: hotWallet, value: DEFAULT_NATIVE_WEI });
  done += `, hot wallet ${hotWallet} ${usdt === 0n || native === 0n ? 'funded' : 'already funded'}`;

  // The owner's transactions at consecutive nonces without waiting between them (one block), then every receipt.
  const hashes: Hash[] = [];
  for (const tx of txs)
    hashes.push(
      'deploy' in tx
        ? await owner.deployContract({ abi: tx.deploy.abi, bytecode: tx.deploy.bytecode, nonce: nonce++ })
        : await owner.sendTransaction({ to: tx.to, data: tx.data, value: tx.value, nonce: nonce++, gas: tx.data ? CALL_GAS : 21_000n }),
    );
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`${network}: the owner's transaction ${hash} reverted`);
  }
  return `${network} (chain ${LOCAL_CHAIN_IDS[network]}, ${rpcUrl}): ${done}`;
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--compile-only')) {
    console.log(`chain-setup: TestUsdt compiled (solc ${compileTestUsdt().solcVersion})`);
    return;
  }
  const started = Date.now();
  const hotWallet = hotWalletAddress();
  const lines = await Promise.all(
    LOCAL_NETWORKS.map((network) => {
      const url = process.env[`CHAIN_RPC_URL_${network}`];
      if (!url) throw new Error(`CHAIN_RPC_URL_${network} must name the local ${network} node`);
      return setUp(network, url, hotWallet);
    }),
  );
  for (const line of lines) console.log(`chain-setup: ${line}`);
  console.log(`chain-setup: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`chain-setup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
