/**
 * The local EVM chains (docs/operations/payouts.md, "Local chains"): a Hardhat node per network, in memory, detached (its own
 * process group, log in `.cache/chain/node-<port>/node.log`), the test USDT deployed and each hot wallet of the
 * pool funded. A running node is reused while it is ours and still the chain its `deployment.json` records (a
 * wallet new to it is funded there); a restarted node is a new chain (ADR 0024). Compose's `chain-setup`
 * (scripts/docker/chain-setup.ts) sets up its nodes with the same steps (setUpLocalChain).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  Abi,
  Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  Hash,
  Hex,
  http,
  parseAbi,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { envPort, repoRoot, waitGone } from '../lib/services';

export const LOCAL_CHAIN_IDS = { ETH: 31337, MATIC: 31338 } as const;
export type LocalNetwork = keyof typeof LOCAL_CHAIN_IDS;
export const LOCAL_NETWORKS: readonly LocalNetwork[] = ['ETH', 'MATIC'];
export type ChainPorts = Record<LocalNetwork, number>;

/** `npm start` and `npm run chain` (CHAIN_PORT_ETH, CHAIN_PORT_MATIC to move them). */
export const DEV_CHAIN_PORTS: ChainPorts = { ETH: envPort('CHAIN_PORT_ETH', 8545, 1), MATIC: envPort('CHAIN_PORT_MATIC', 8546, 1) };
/** `npm test` (TEST_CHAIN_PORT_ETH, TEST_CHAIN_PORT_MATIC to move them). */
export const TEST_CHAIN_PORTS: ChainPorts = {
  ETH: envPort('TEST_CHAIN_PORT_ETH', 18545, 1),
  MATIC: envPort('TEST_CHAIN_PORT_MATIC', 18546, 1),
};

/** The documented failing destination: the test token refuses transfers to it (REFUSED_DESTINATION), so one to it is mined and reverts. */
export const REFUSED_DESTINATION: Address = '0x000000000000000000000000000000000000dEaD';
/** Hardhat's public development account #0 (worthless off a local chain): the token's deployer and owner. */
export const LOCAL_OWNER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
/** Where the owner's first deployment lands on a new chain: what USDT_CONTRACT_* say for Compose's local chains. */
export const LOCAL_TOKEN_ADDRESS: Address = getContractAddress({ from: privateKeyToAccount(LOCAL_OWNER_KEY).address, nonce: 0n });
/** 10,000,000 USDT in micros (6 decimals). */
export const DEFAULT_USDT_MICROS = 10_000_000_000_000n;
export const DEFAULT_NATIVE_WEI = parseEther('100');

export interface LocalChain {
  network: LocalNetwork;
  rpcUrl: string;
  chainId: number;
  tokenAddress: Address;
  genesisHash: Hash;
  /** Whether this call started the node (false: an already running one was reused). */
  started: boolean;
}

export interface EnsureLocalChainsOptions {
  ports: ChainPorts;
  /** The hot wallets to fund on every network (the withdrawals service's pool: each a nonce lane). */
  hotWallets: readonly Address[];
  /** > 0: a block every N ms, automine off (as a real chain); 0: a block per transaction, at once. */
  blockTimeMs: number;
  /** New chains even where ours run (the old ones are killed: everything on them is gone). */
  fresh?: boolean;
}

/** What `deployment.json` in a node's folder records: `hotWallets`, those funded there (absent in records older than the pool). */
export type LocalChainDeployment = Omit<LocalChain, 'started'> & { hotWallets?: Address[]; blockTimeMs: number; deployedAt: string };

const root = repoRoot();
/** The nodes' folders and the compiled token. */
const dataDir = join(root, '.cache', 'chain');
const hardhatCli = join(root, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');
const hardhatConfig = join(root, 'scripts', 'chain', 'node', 'hardhat.config.js');
const tokenSource = join(root, 'scripts', 'chain', 'contracts', 'TestUsdt.sol');
const nodeFile = (port: number, file = '') => join(dataDir, `node-${port}`, file);
const rpcUrlOf = (port: number) => `http://127.0.0.1:${port}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const READY_DEADLINE_MS = 60_000;

/** The hot wallet's key in `file` (a fresh random one, mode 0600, when missing); its address. Never prints the key. */
export function ensureHotWalletKey(file: string): { address: Address; keyFile: string } {
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // there already (or another process made it first)
  }
  return { address: hotWalletAddress(file), keyFile: file };
}

/**
 * ensureHotWalletKey for each file of a pool, in order; refuses two files holding one key: that wallet would
 * be two nonce lanes of one account.
 */
export function ensureHotWalletKeys(files: readonly string[]): Array<{ address: Address; keyFile: string }> {
  if (files.length === 0) throw new Error('no hot wallet key file given');
  const wallets = files.map(ensureHotWalletKey);
  wallets.forEach((wallet, i) => {
    const first = wallets.findIndex((other) => other.address === wallet.address);
    if (first !== i)
      throw new Error(`${files[first]} and ${wallet.keyFile} hold the same key (${wallet.address}): give each wallet its own`);
  });
  return wallets;
}

/** The address of the key in `file`; the message names the file, never what is in it. */
export function hotWalletAddress(file: string): Address {
  const key = readFileSync(file, 'utf8').trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`${file} does not hold a private key (0x + 64 hex digits)`);
  return privateKeyToAccount(key as Hex).address;
}

export interface CompiledToken {
  abi: Abi;
  bytecode: Hex;
  solcVersion: string;
}

/** TestUsdt compiled by solc-js (about a second), cached in `.cache/chain/TestUsdt-<hash of source, solc version, settings>.json`. */
export function compileTestUsdt(): CompiledToken {
  const source = readFileSync(tokenSource, 'utf8');
  // solc-js's package version is its compiler's: a cache hit never loads the 8 MB compiler.
  const solcVersion = (JSON.parse(readFileSync(join(root, 'node_modules', 'solc', 'package.json'), 'utf8')) as { version: string }).version;
  const settings = {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun', // below every hardfork Ethereum and Polygon PoS run today, and EDR's default
    outputSelection: { '*': { TestUsdt: ['abi', 'evm.bytecode.object'] } },
  };
  const hash = createHash('sha256').update(JSON.stringify({ source, solcVersion, settings })).digest('hex').slice(0, 16);
  const cacheFile = join(dataDir, `TestUsdt-${hash}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as CompiledToken;

  const solc = require('solc') as { compile(input: string): string };
  const input = { language: 'Solidity', sources: { 'TestUsdt.sol': { content: source } }, settings };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`TestUsdt.sol does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts?.['TestUsdt.sol']?.TestUsdt;
  if (!contract) throw new Error('solc returned no TestUsdt contract');
  const compiled: CompiledToken = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}`, solcVersion };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(`${cacheFile}.tmp`, JSON.stringify(compiled));
  renameSync(`${cacheFile}.tmp`, cacheFile);
  return compiled;
}

/** The pid in the node's pid file when that process is our Hardhat node on `port` (its command line says so). */
function ourNodePid(port: number): number | undefined {
  try {
    const pid = Number(readFileSync(nodeFile(port, 'node.pid'), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const ours = cmdline.includes(hardhatCli) && cmdline.includes(hardhatConfig) && cmdline.includes('node');
    return ours && cmdline[cmdline.indexOf('--port') + 1] === String(port) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Signals the node's process group (it was spawned detached), else the process alone; nothing when it is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  const send = (target: number) => {
    try {
      return process.kill(target, signal);
    } catch {
      return false;
    }
  };
  if (!send(-pid)) send(pid);
}

const forget = (port: number) => {
  for (const file of ['node.pid', 'deployment.json']) rmSync(nodeFile(port, file), { force: true });
};

/** kill -9 of our node on `port` (fault injection: the chain and all on it are gone); waits until the process is. */
export async function killLocalChain(port: number): Promise<void> {
  const pid = ourNodePid(port);
  if (pid !== undefined) {
    signalGroup(pid, 'SIGKILL');
    if (!(await waitGone(pid, 10_000))) throw new Error(`chain node pid ${pid} (port ${port}) still present 10 s after kill -9`);
  }
  forget(port);
}

/** Stops our nodes on `ports` (SIGTERM, then SIGKILL after 5 s: in memory, they have nothing to save). */
export async function stopLocalChains(ports: ChainPorts): Promise<void> {
  await Promise.all(
    LOCAL_NETWORKS.map(async (network) => {
      const pid = ourNodePid(ports[network]);
      if (pid !== undefined) {
        signalGroup(pid, 'SIGTERM');
        if (!(await waitGone(pid, 5_000))) await killLocalChain(ports[network]);
      }
      forget(ports[network]);
    }),
  );
}

/** Whether our node runs on `port` and answers JSON-RPC. */
export async function localChainRunning(port: number): Promise<boolean> {
  return ourNodePid(port) !== undefined && (await chainIdAt(rpcUrlOf(port))) !== undefined;
}

/** The chain id the node at `rpcUrl` answers, or undefined when nothing answers there. */
async function chainIdAt(rpcUrl: string): Promise<number | undefined> {
  try {
    return await createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 2_000 }) }).getChainId();
  } catch {
    return undefined;
  }
}

/** Kills our old node on `port` (if any) and starts a new one; fails when something else holds the port. */
async function launch(network: LocalNetwork, port: number, blockTimeMs: number): Promise<ChildProcess> {
  await killLocalChain(port);
  const foreign = await chainIdAt(rpcUrlOf(port));
  if (foreign !== undefined) throw new Error(`port ${port} is taken by a JSON-RPC node that is not this checkout's (chain id ${foreign})`);
  mkdirSync(nodeFile(port), { recursive: true });
  const log = openSync(nodeFile(port, 'node.log'), 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHAIN_ID: String(LOCAL_CHAIN_IDS[network]),
    BLOCK_TIME_MS: String(blockTimeMs),
    CHAIN_DATA_DIR: nodeFile(port, 'hardhat'), // the node creates <artifacts>/build-info there
    HARDHAT_DISABLE_TELEMETRY: 'true',
    GENESIS_SALT: String(randomInt(1, 2 ** 47)), // a genesis of its own (hardhat.config.js says why)
  };
  delete env.NODE_OPTIONS; // whatever loader runs this process (tsx, Jest) is not the node's
  const child = spawn(
    process.execPath,
    [hardhatCli, '--config', hardhatConfig, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    { cwd: dirname(hardhatConfig), env, detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start the ${network} chain node (${hardhatCli})`);
  writeFileSync(nodeFile(port, 'node.pid'), `${child.pid}\n`);
  child.unref();
  return child;
}

/**
 * Polls eth_chainId until the node at `rpcUrl` answers its network's; fails when it serves another chain, or
 * when the node `launched` here exits first or the deadline passes (with its log's tail).
 */
async function waitForNode(network: LocalNetwork, rpcUrl: string, launched?: { child: ChildProcess; port: number }): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  for (;;) {
    const chainId = await chainIdAt(rpcUrl);
    if (chainId === LOCAL_CHAIN_IDS[network]) return;
    if (chainId !== undefined)
      throw new Error(`${rpcUrl} serves chain ${chainId}, not the local ${network} chain (${LOCAL_CHAIN_IDS[network]})`);
    const child = launched?.child;
    const exited = child !== undefined && (child.exitCode !== null || child.signalCode !== null);
    if (exited || Date.now() > deadline) {
      const log = launched && nodeFile(launched.port, 'node.log');
      const tail = log && existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-15).join('\n') : '(no log)';
      const why = exited
        ? `exited (${child.exitCode ?? child.signalCode}) before it answered`
        : `did not answer within ${READY_DEADLINE_MS / 1000} s`;
      throw new Error(`the ${network} chain node at ${rpcUrl} ${why}${launched ? `:\n${tail}` : ''}`);
    }
    await sleep(100);
  }
}

/** A reader and a wallet (the token's owner unless `key` says otherwise) on the local chain at `rpcUrl`. */
export function localChainClients(network: LocalNetwork, rpcUrl: string, key: Hex = LOCAL_OWNER_KEY) {
  const chain = defineChain({
    id: LOCAL_CHAIN_IDS[network],
    name: `local ${network}`,
    nativeCurrency: { name: network === 'ETH' ? 'Ether' : 'POL', symbol: network === 'ETH' ? 'ETH' : 'POL', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0, timeout: 10_000 });
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 100 }),
    wallet: createWalletClient({ account: privateKeyToAccount(key), chain, transport }),
  };
}
type Clients = ReturnType<typeof localChainClients>;

// A call sent before the previous transaction is mined cannot be estimated: a fixed limit, well above the 60k each needs.
const CALL_GAS = 150_000n;

type OwnerTx = { to: Address; data?: Hex; value?: bigint } | { deploy: CompiledToken };

/** The owner's transactions at consecutive nonces, sent without waiting (one block with interval mining); fails unless all succeed. */
async function sendAsOwner({ publicClient, wallet }: Clients, txs: OwnerTx[]): Promise<void> {
  let nonce = await publicClient.getTransactionCount({ address: wallet.account.address, blockTag: 'pending' });
  const hashes: Hash[] = [];
  for (const tx of txs) {
    hashes.push(
      'deploy' in tx
        ? await wallet.deployContract({ abi: tx.deploy.abi, bytecode: tx.deploy.bytecode, nonce: nonce++ })
        : await wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value, nonce: nonce++, gas: tx.data ? CALL_GAS : 21_000n }),
    );
  }
  const receipts = await Promise.all(hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 })));
  const failed = receipts.find((receipt) => receipt.status !== 'success');
  if (failed) throw new Error(`owner transaction ${failed.transactionHash} reverted`);
}

// The owner's calls and the reads, written here so that funding and checking need no compiler.
const adminAbi = parseAbi([
  'function issue(uint256 amount)',
  'function transfer(address to, uint256 value)',
  'function balanceOf(address who) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function REFUSED_DESTINATION() view returns (address)',
]);

const fundingTxs = (token: Address, to: Address, usdtMicros: bigint, nativeWei: bigint): OwnerTx[] => [
  ...(usdtMicros > 0n
    ? [
        { to: token, data: encodeFunctionData({ abi: adminAbi, functionName: 'issue', args: [usdtMicros] }) },
        { to: token, data: encodeFunctionData({ abi: adminAbi, functionName: 'transfer', args: [to, usdtMicros] }) },
      ]
    : []),
  ...(nativeWei > 0n ? [{ to, value: nativeWei }] : []),
];

/**
 * The test USDT and the hot wallets' funds on the local chain at `rpcUrl` (npm start's nodes, Compose's
 * `chain-setup`). On a new chain: the token deployed as the local owner (so at LOCAL_TOKEN_ADDRESS), each
 * wallet funded (10,000,000 USDT, 100 ETH or POL). On a chain it set up: the token checked, and
 * a wallet that holds no USDT or no native coin (a new key) funded with what it lacks; one that has been paying
 * keeps what it has. Returns what it did.
 */
export async function setUpLocalChain(
  network: LocalNetwork,
  rpcUrl: string,
  hotWallets: readonly Address[],
  compiled: () => CompiledToken = compileTestUsdt,
): Promise<string> {
  await waitForNode(network, rpcUrl);
  const c = localChainClients(network, rpcUrl);
  const token = { address: LOCAL_TOKEN_ADDRESS, abi: adminAbi } as const;
  const code = await c.publicClient.getCode(token);
  const deployed = code !== undefined && code !== '0x';
  const txs: OwnerTx[] = [];
  let done = `TestUsdt already at ${LOCAL_TOKEN_ADDRESS}`;
  if (!deployed) {
    const nonce = await c.publicClient.getTransactionCount({ address: c.wallet.account.address, blockTag: 'pending' });
    if (nonce !== 0)
      throw new Error(
        `${network}: the owner has sent ${nonce} transactions on ${rpcUrl} but no token is at ${LOCAL_TOKEN_ADDRESS}: ` +
          'a chain not set up here (start it anew: npm run compose:down, or npm run chain -- start --fresh)',
      );
    txs.push({ deploy: compiled() });
    done = `TestUsdt deployed at ${LOCAL_TOKEN_ADDRESS}`;
  } else {
    const [decimals, refused] = await Promise.all([
      c.publicClient.readContract({ ...token, functionName: 'decimals' }),
      c.publicClient.readContract({ ...token, functionName: 'REFUSED_DESTINATION' }).catch(() => undefined),
    ]);
    if (decimals !== 6 || refused !== REFUSED_DESTINATION)
      throw new Error(
        `${network}: the contract at ${LOCAL_TOKEN_ADDRESS} is not this version of the test USDT (start the chain anew: npm run chain -- start --fresh, or npm run compose:down)`,
      );
  }
  const funded: string[] = [];
  for (const hotWallet of hotWallets) {
    const [usdt, native] = deployed
      ? await Promise.all([
          c.publicClient.readContract({ ...token, functionName: 'balanceOf', args: [hotWallet] }),
          c.publicClient.getBalance({ address: hotWallet }),
        ])
      : [0n, 0n];
    txs.push(
      ...fundingTxs(LOCAL_TOKEN_ADDRESS, hotWallet, usdt === 0n ? DEFAULT_USDT_MICROS : 0n, native === 0n ? DEFAULT_NATIVE_WEI : 0n),
    );
    funded.push(`hot wallet ${hotWallet} ${usdt === 0n || native === 0n ? 'funded' : 'already funded'}`);
  }
  await sendAsOwner(c, txs);
  return [done, ...funded].join(', ');
}

/** The deployment record of our node on `port`, if there is one. */
export function readDeployment(port: number): LocalChainDeployment | undefined {
  try {
    return JSON.parse(readFileSync(nodeFile(port, 'deployment.json'), 'utf8')) as LocalChainDeployment;
  } catch {
    return undefined;
  }
}

/** Issues `usdtMicros` and sends `nativeWei` to each of `to` on our chain on `port` (`npm run chain fund`). */
export async function fundFromOwner(
  network: LocalNetwork,
  port: number,
  to: Address | readonly Address[],
  usdtMicros: bigint,
  nativeWei: bigint,
) {
  const record = readDeployment(port);
  if (!record || !(await localChainRunning(port))) throw new Error(`no local ${network} chain of ours on :${port}: npm run chain start`);
  const txs = (typeof to === 'string' ? [to] : to).flatMap((address) => fundingTxs(record.tokenAddress, address, usdtMicros, nativeWei));
  await sendAsOwner(localChainClients(network, rpcUrlOf(port)), txs);
}

/** The running chain on `port` when it is ours and still the one its record describes, with the same settings. */
async function reusable(network: LocalNetwork, port: number, o: EnsureLocalChainsOptions): Promise<LocalChain | undefined> {
  const record = readDeployment(port);
  if (ourNodePid(port) === undefined || !record) return undefined;
  if (record.chainId !== LOCAL_CHAIN_IDS[network] || record.blockTimeMs !== o.blockTimeMs) return undefined;
  if ((await chainIdAt(record.rpcUrl)) !== LOCAL_CHAIN_IDS[network]) return undefined;
  const { publicClient } = localChainClients(network, record.rpcUrl);
  try {
    const [code, genesis] = await Promise.all([
      publicClient.getCode({ address: record.tokenAddress }),
      publicClient.getBlock({ blockNumber: 0n }),
    ]);
    if (code === undefined || code === '0x' || genesis.hash !== record.genesisHash) return undefined;
  } catch {
    return undefined;
  }
  const { tokenAddress, genesisHash, chainId, rpcUrl } = record;
  return { network, rpcUrl, chainId, tokenAddress, genesisHash, started: false };
}

/** On a reused chain, funds the wallets its record does not list (added to the pool since), and records them. */
async function fundNewWallets(network: LocalNetwork, port: number, chain: LocalChain, o: EnsureLocalChainsOptions): Promise<void> {
  const record = readDeployment(port) as LocalChainDeployment;
  const known = new Set((record.hotWallets ?? []).map((address) => getAddress(address)));
  const added = o.hotWallets.map((address) => getAddress(address)).filter((address) => !known.has(address));
  if (added.length === 0) return;
  console.log(`chain: ${network} on :${port}: ${await setUpLocalChain(network, chain.rpcUrl, added)}`);
  writeFileSync(nodeFile(port, 'deployment.json'), `${JSON.stringify({ ...record, hotWallets: [...known, ...added] }, null, 2)}\n`);
}

/**
 * One local chain per network on `o.ports`, each with TestUsdt deployed, every hot wallet funded and
 * 0x…dEaD blacklisted: our running ones reused (unless `fresh`; a wallet new to one is funded there), the
 * others started, in parallel.
 */
export async function ensureLocalChains(o: EnsureLocalChainsOptions): Promise<Record<LocalNetwork, LocalChain>> {
  const startedAt = performance.now();
  if (!existsSync(hardhatCli)) throw new Error(`${hardhatCli} is missing: npm install`);
  const reused = await Promise.all(LOCAL_NETWORKS.map(async (network) => (o.fresh ? undefined : reusable(network, o.ports[network], o))));
  const toStart = LOCAL_NETWORKS.filter((_, i) => reused[i] === undefined);
  await Promise.all(
    LOCAL_NETWORKS.map(async (network, i) => {
      const chain = reused[i];
      if (chain) await fundNewWallets(network, o.ports[network], chain, o);
    }),
  );
  const children = await Promise.all(toStart.map((network) => launch(network, o.ports[network], o.blockTimeMs)));
  // solc-js (synchronous, about a second on a cache miss) while the new nodes start in their own processes.
  const compiled = toStart.length > 0 ? compileTestUsdt() : undefined;
  const started = await Promise.all(
    toStart.map(async (network, i): Promise<LocalChain> => {
      const port = o.ports[network];
      const rpcUrl = rpcUrlOf(port);
      await waitForNode(network, rpcUrl, { child: children[i], port });
      await setUpLocalChain(network, rpcUrl, o.hotWallets, () => compiled as CompiledToken);
      const genesis = await localChainClients(network, rpcUrl).publicClient.getBlock({ blockNumber: 0n });
      const chain = { network, chainId: LOCAL_CHAIN_IDS[network], rpcUrl, tokenAddress: LOCAL_TOKEN_ADDRESS, genesisHash: genesis.hash };
      const record: LocalChainDeployment = {
        ...chain,
        hotWallets: o.hotWallets.map((address) => getAddress(address)),
        blockTimeMs: o.blockTimeMs,
        deployedAt: new Date().toISOString(),
      };
      writeFileSync(nodeFile(port, 'deployment.json'), `${JSON.stringify(record, null, 2)}\n`);
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      console.log(
        `chain: ${network} local node on :${port} (chain id ${chain.chainId}), USDT at ${chain.tokenAddress}, started in ${seconds} s`,
      );
      return { ...chain, started: true };
    }),
  );
  const chains = LOCAL_NETWORKS.map((network, i) => [network, reused[i] ?? started[toStart.indexOf(network)]]);
  return Object.fromEntries(chains) as Record<LocalNetwork, LocalChain>;
}

/** What `npm run chain status` shows of the node on `port`: the chain, and each of `holders`' balances. */
export async function localChainStatus(network: LocalNetwork, port: number, holders: readonly Address[]) {
  const record = readDeployment(port);
  if (!record || !(await localChainRunning(port))) return undefined;
  const { publicClient } = localChainClients(network, record.rpcUrl);
  const balancesOf = async (address: Address) => {
    const [usdtMicros, nativeWei] = await Promise.all([
      publicClient.readContract({ address: record.tokenAddress, abi: adminAbi, functionName: 'balanceOf', args: [address] }),
      publicClient.getBalance({ address }),
    ]);
    return { address, usdtMicros, nativeWei };
  };
  const [blockNumber, wallets] = await Promise.all([publicClient.getBlockNumber(), Promise.all(holders.map(balancesOf))]);
  return { ...record, pid: ourNodePid(port), blockNumber, wallets };
}
