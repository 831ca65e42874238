/**
 * The project's local EVM chains: a real chain on this machine, one JSON-RPC node per network (Hardhat 3's
 * node, its EDR engine, in memory), each with the test USDT (contracts/TestUsdt.sol) deployed and the hot
 * wallet funded. `npm start` (dev ports), `npm test` (test ports) and `npm run chain` use it.
 *
 * A node runs detached (its own process group, its output in `<dataDir>/node-<port>/node.log`), so it
 * outlives the process that started it, as the Kafka broker does; the next call reuses it when it is still
 * ours and still the chain its `deployment.json` describes. A restarted node is a new chain: in memory, it
 * forgets every block, balance and contract, and has a new genesis hash.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  Abi,
  Account,
  Address,
  Chain,
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
  PublicClient,
  Transport,
  WalletClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { repoRoot } from '../lib/services';

export const LOCAL_CHAIN_IDS = { ETH: 31337, MATIC: 31338 } as const;
export type LocalNetwork = keyof typeof LOCAL_CHAIN_IDS;
export const LOCAL_NETWORKS: readonly LocalNetwork[] = ['ETH', 'MATIC'];
export type ChainPorts = Record<LocalNetwork, number>;

const envPort = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name} must be a TCP port, got "${value}"`);
  return port;
};

/** `npm start` and `npm run chain` (CHAIN_PORT_ETH, CHAIN_PORT_MATIC to move them). */
export const DEV_CHAIN_PORTS: ChainPorts = { ETH: envPort('CHAIN_PORT_ETH', 8545), MATIC: envPort('CHAIN_PORT_MATIC', 8546) };
/** `npm test` (TEST_CHAIN_PORT_ETH, TEST_CHAIN_PORT_MATIC to move them). */
export const TEST_CHAIN_PORTS: ChainPorts = {
  ETH: envPort('TEST_CHAIN_PORT_ETH', 18545),
  MATIC: envPort('TEST_CHAIN_PORT_MATIC', 18546),
};

/** The project's documented failing destination: blacklisted on every local chain, so a transfer to it is mined and reverts. */
export const BLACKLISTED_DESTINATION: Address = '0x000000000000000000000000000000000000dEaD';
/**
 * Hardhat's prefunded development account #0 (from its public test mnemonic; every Hardhat and Anvil node
 * has it): the token's deployer and owner. A well-known key, worthless anywhere but a local chain.
 */
export const LOCAL_OWNER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
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
  hotWallet: Address;
  /** > 0: a block every N ms, automine off (as a real chain); 0: a block per transaction, at once. */
  blockTimeMs: number;
  /** Start new chains even where ours run (the old ones are killed: everything on them is gone). */
  fresh?: boolean;
  /** USDT issued to the hot wallet on a new chain; DEFAULT_USDT_MICROS. */
  usdtMicros?: bigint;
  /** Native coin sent to the hot wallet on a new chain; DEFAULT_NATIVE_WEI (100 ETH). */
  nativeWei?: bigint;
  /** Where the nodes' folders and the compiled token go; `.cache/chain`. */
  dataDir?: string;
}

/** What `deployment.json` in a node's folder records. */
export interface LocalChainDeployment {
  network: LocalNetwork;
  chainId: number;
  rpcUrl: string;
  tokenAddress: Address;
  genesisHash: Hash;
  hotWallet: Address;
  blockTimeMs: number;
  deployedAt: string;
}

const root = repoRoot();
const defaultDataDir = join(root, '.cache', 'chain');
const hardhatCli = join(root, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');
const hardhatConfig = join(root, 'scripts', 'chain', 'node', 'hardhat.config.js');
const tokenSource = join(root, 'scripts', 'chain', 'contracts', 'TestUsdt.sol');
const nodeDir = (dataDir: string, port: number) => join(dataDir, `node-${port}`);
const rpcUrlOf = (port: number) => `http://127.0.0.1:${port}`;
const READY_DEADLINE_MS = 60_000;

// ---------------------------------------------------------------------------------------------------------
// The hot wallet's key

/**
 * The hot wallet's private key in `file` (created, mode 0600, when missing: a fresh random key, 0x-hex,
 * newline-terminated); returns its address. Never prints the key.
 */
export function ensureHotWalletKey(file: string): { address: Address; keyFile: string } {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first: read theirs
    }
  }
  const key = readFileSync(file, 'utf8').trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`${file} does not hold a 0x-prefixed 32-byte hex private key`);
  return { address: privateKeyToAccount(key as Hex).address, keyFile: file };
}

// ---------------------------------------------------------------------------------------------------------
// The token, compiled by solc-js and cached by content

export interface CompiledToken {
  abi: Abi;
  bytecode: Hex;
  solcVersion: string;
}

/**
 * TestUsdt's ABI and bytecode: from `<dataDir>/TestUsdt-<hash>.json` when the source, the solc version and
 * the settings are those it was compiled from, else compiled by solc-js (about a second) and cached.
 */
export function compileTestUsdt(dataDir = defaultDataDir): CompiledToken {
  const source = readFileSync(tokenSource, 'utf8');
  // solc-js's package version is its compiler's version; reading it spares loading the compiler on a cache hit.
  const solcVersion = (JSON.parse(readFileSync(join(root, 'node_modules', 'solc', 'package.json'), 'utf8')) as { version: string }).version;
  const settings = {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun', // below every hardfork Ethereum and Polygon PoS run today, and EDR's default
    outputSelection: { '*': { TestUsdt: ['abi', 'evm.bytecode.object'] } },
  };
  const hash = createHash('sha256').update(JSON.stringify({ source, solcVersion, settings })).digest('hex').slice(0, 16);
  const cacheFile = join(dataDir, `TestUsdt-${hash}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as CompiledToken;

  // solc-js loads an 8 MB compiler: only on a cache miss.
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

// ---------------------------------------------------------------------------------------------------------
// The nodes' processes

/** The pid in the node's pid file when that process is our Hardhat node on `port` (its command line says so). */
function ourNodePid(port: number, dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(nodeDir(dataDir, port), 'node.pid'), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const ours = cmdline.includes(hardhatCli) && cmdline.includes(hardhatConfig) && cmdline.includes('node');
    const port_ = cmdline[cmdline.indexOf('--port') + 1];
    return ours && port_ === String(port) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is gone (a zombie, killed and not yet reaped by its parent, counts as gone). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

async function waitGone(pid: number, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (!gone(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal); // the node leads its own process group (spawned detached)
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function forget(port: number, dataDir: string): void {
  for (const file of ['node.pid', 'deployment.json']) rmSync(join(nodeDir(dataDir, port), file), { force: true });
}

/** kill -9 of our node on `port` (fault injection: the chain and all on it are gone); waits until the process is. */
export async function killLocalChain(port: number, dataDir = defaultDataDir): Promise<void> {
  const pid = ourNodePid(port, dataDir);
  if (pid !== undefined) {
    signalGroup(pid, 'SIGKILL');
    if (!(await waitGone(pid, 10_000))) throw new Error(`chain node pid ${pid} (port ${port}) still present 10 s after kill -9`);
  }
  forget(port, dataDir);
}

/** Stops our nodes on `ports` (SIGTERM, then SIGKILL after 5 s: in memory, they have nothing to save). */
export async function stopLocalChains(ports: ChainPorts, dataDir = defaultDataDir): Promise<void> {
  await Promise.all(
    LOCAL_NETWORKS.map(async (network) => {
      const port = ports[network];
      const pid = ourNodePid(port, dataDir);
      if (pid !== undefined) {
        signalGroup(pid, 'SIGTERM');
        if (!(await waitGone(pid, 5_000))) await killLocalChain(port, dataDir);
      }
      forget(port, dataDir);
    }),
  );
}

/** Whether our node runs on `port` and answers JSON-RPC. */
export async function localChainRunning(port: number, dataDir = defaultDataDir): Promise<boolean> {
  return ourNodePid(port, dataDir) !== undefined && (await chainIdAt(port)) !== undefined;
}

/** The chain id the node on `port` answers, or undefined when nothing answers there. */
async function chainIdAt(port: number): Promise<number | undefined> {
  try {
    return await createPublicClient({ transport: http(rpcUrlOf(port), { retryCount: 0, timeout: 2_000 }) }).getChainId();
  } catch {
    return undefined;
  }
}

function startNode(network: LocalNetwork, port: number, blockTimeMs: number, dataDir: string): ChildProcess {
  const dir = nodeDir(dataDir, port);
  mkdirSync(dir, { recursive: true });
  const log = openSync(join(dir, 'node.log'), 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHAIN_ID: String(LOCAL_CHAIN_IDS[network]),
    BLOCK_TIME_MS: String(blockTimeMs),
    CHAIN_DATA_DIR: join(dir, 'hardhat'), // the node creates <artifacts>/build-info there
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
  writeFileSync(join(dir, 'node.pid'), `${child.pid}\n`);
  child.unref();
  return child;
}

function logTail(port: number, dataDir: string): string {
  try {
    return readFileSync(join(nodeDir(dataDir, port), 'node.log'), 'utf8')
      .trim()
      .split('\n')
      .slice(-15)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

/** Polls eth_chainId until the new node answers it, it exits, or the deadline passes. */
async function waitForNode(network: LocalNetwork, port: number, child: ChildProcess, dataDir: string): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  for (;;) {
    const chainId = await chainIdAt(port);
    if (chainId === LOCAL_CHAIN_IDS[network]) return;
    if (chainId !== undefined) throw new Error(`the node on :${port} answers chain id ${chainId}, not ${LOCAL_CHAIN_IDS[network]}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the ${network} chain node on :${port} exited (${child.exitCode ?? child.signalCode}) before it answered:\n${logTail(port, dataDir)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the ${network} chain node on :${port} did not answer within ${READY_DEADLINE_MS / 1000} s:\n${logTail(port, dataDir)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Deploying and funding

interface Clients {
  chain: Chain;
  publicClient: PublicClient;
  owner: WalletClient<Transport, Chain, Account>;
}

function clients(network: LocalNetwork, port: number): Clients {
  const rpcUrl = rpcUrlOf(port);
  const chain = defineChain({
    id: LOCAL_CHAIN_IDS[network],
    name: `local ${network}`,
    nativeCurrency: network === 'ETH' ? { name: 'Ether', symbol: 'ETH', decimals: 18 } : { name: 'POL', symbol: 'POL', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0, timeout: 10_000 });
  return {
    chain,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 100 }),
    owner: createWalletClient({ account: privateKeyToAccount(LOCAL_OWNER_KEY), chain, transport }),
  };
}

// Calls into a contract sent before it is mined cannot be estimated (the state they run on is not there
// yet): a fixed limit, well above what each needs (under 60k).
const CALL_GAS = 150_000n;

type OwnerTx = { to: Address; data?: Hex; value?: bigint } | { deploy: CompiledToken };

/**
 * Sends the owner's transactions at consecutive nonces without waiting between them (with interval mining
 * they land in the same block), then waits for every receipt; fails unless all succeeded.
 */
async function sendAsOwner({ publicClient, owner }: Clients, txs: OwnerTx[]): Promise<{ contractAddress?: Address }[]> {
  let nonce = await publicClient.getTransactionCount({ address: owner.account.address, blockTag: 'pending' });
  const hashes: Hash[] = [];
  for (const tx of txs) {
    hashes.push(
      'deploy' in tx
        ? await owner.deployContract({ abi: tx.deploy.abi, bytecode: tx.deploy.bytecode, nonce: nonce++ })
        : await owner.sendTransaction({ to: tx.to, data: tx.data, value: tx.value, nonce: nonce++, gas: tx.data ? CALL_GAS : 21_000n }),
    );
  }
  const receipts = await Promise.all(hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 })));
  const failed = receipts.find((receipt) => receipt.status !== 'success');
  if (failed) throw new Error(`owner transaction ${failed.transactionHash} reverted`);
  return receipts.map((receipt) => ({ contractAddress: receipt.contractAddress ?? undefined }));
}

// The owner's calls, and balanceOf (TestUsdt's ABI has them; written here so that funding needs no compiler).
const adminAbi = parseAbi([
  'function issue(uint256 amount)',
  'function transfer(address to, uint256 value)',
  'function addBlackList(address evilUser)',
  'function balanceOf(address who) view returns (uint256)',
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

/** Deploys TestUsdt on a new chain, funds the hot wallet, blacklists 0x…dEaD; returns the deployment record. */
async function deploy(
  network: LocalNetwork,
  port: number,
  o: EnsureLocalChainsOptions,
  token: CompiledToken,
): Promise<LocalChainDeployment> {
  const c = clients(network, port);
  const owner = c.owner.account.address;
  const nonce = await c.publicClient.getTransactionCount({ address: owner, blockTag: 'pending' });
  const tokenAddress = getContractAddress({ from: owner, nonce: BigInt(nonce) });
  const [deployed] = await sendAsOwner(c, [
    { deploy: token },
    ...fundingTxs(tokenAddress, o.hotWallet, o.usdtMicros ?? DEFAULT_USDT_MICROS, o.nativeWei ?? DEFAULT_NATIVE_WEI),
    { to: tokenAddress, data: encodeFunctionData({ abi: adminAbi, functionName: 'addBlackList', args: [BLACKLISTED_DESTINATION] }) },
  ]);
  if (deployed?.contractAddress === undefined || getAddress(deployed.contractAddress) !== tokenAddress) {
    throw new Error(`TestUsdt deployed at ${deployed?.contractAddress}, expected ${tokenAddress}`);
  }
  const genesis = await c.publicClient.getBlock({ blockNumber: 0n });
  return {
    network,
    chainId: LOCAL_CHAIN_IDS[network],
    rpcUrl: rpcUrlOf(port),
    tokenAddress,
    genesisHash: genesis.hash,
    hotWallet: getAddress(o.hotWallet),
    blockTimeMs: o.blockTimeMs,
    deployedAt: new Date().toISOString(),
  };
}

/** Issues `usdtMicros` and sends `nativeWei` to `to` on our chain on `port` (`npm run chain fund`). */
export async function fundFromOwner(
  network: LocalNetwork,
  port: number,
  to: Address,
  usdtMicros: bigint,
  nativeWei: bigint,
  dataDir = defaultDataDir,
) {
  const record = readDeployment(port, dataDir);
  if (!record || !(await localChainRunning(port, dataDir)))
    throw new Error(`no local ${network} chain of ours on :${port}: npm run chain start`);
  await sendAsOwner(clients(network, port), fundingTxs(record.tokenAddress, to, usdtMicros, nativeWei));
}

/** The deployment record of our node on `port`, if there is one. */
export function readDeployment(port: number, dataDir = defaultDataDir): LocalChainDeployment | undefined {
  try {
    return JSON.parse(readFileSync(join(nodeDir(dataDir, port), 'deployment.json'), 'utf8')) as LocalChainDeployment;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The whole thing

/** The running chain on `port` when it is ours and still the one its record describes, with the same settings. */
async function reusable(
  network: LocalNetwork,
  port: number,
  o: EnsureLocalChainsOptions,
  dataDir: string,
): Promise<LocalChain | undefined> {
  const record = readDeployment(port, dataDir);
  if (ourNodePid(port, dataDir) === undefined || !record) return undefined;
  if (record.chainId !== LOCAL_CHAIN_IDS[network] || record.blockTimeMs !== o.blockTimeMs) return undefined;
  if (getAddress(record.hotWallet) !== getAddress(o.hotWallet)) return undefined;
  if ((await chainIdAt(port)) !== LOCAL_CHAIN_IDS[network]) return undefined;
  const { publicClient } = clients(network, port);
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

/** Kills our old node on `port` (if any) and starts a new one; fails when something else holds the port. */
async function launch(network: LocalNetwork, port: number, blockTimeMs: number, dataDir: string): Promise<ChildProcess> {
  await killLocalChain(port, dataDir);
  const foreign = await chainIdAt(port);
  if (foreign !== undefined) throw new Error(`port ${port} is taken by a JSON-RPC node that is not this checkout's (chain id ${foreign})`);
  return startNode(network, port, blockTimeMs, dataDir);
}

/** Waits for a launched node, deploys and funds, records the deployment; prints the one line. */
async function bringUp(
  network: LocalNetwork,
  port: number,
  child: ChildProcess,
  o: EnsureLocalChainsOptions,
  dataDir: string,
  compiled: CompiledToken,
  startedAt: number,
): Promise<LocalChain> {
  await waitForNode(network, port, child, dataDir);
  const record = await deploy(network, port, o, compiled);
  writeFileSync(join(nodeDir(dataDir, port), 'deployment.json'), `${JSON.stringify(record, null, 2)}\n`);
  const { chainId, rpcUrl, tokenAddress, genesisHash } = record;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`chain: ${network} local node on :${port} (chain id ${chainId}), USDT at ${tokenAddress}, started in ${seconds} s`);
  return { network, rpcUrl, chainId, tokenAddress, genesisHash, started: true };
}

/**
 * One local chain per network on `o.ports`, each with TestUsdt deployed, the hot wallet funded and
 * 0x…dEaD blacklisted: our running ones reused (unless `fresh`), the others started (both in parallel).
 */
export async function ensureLocalChains(o: EnsureLocalChainsOptions): Promise<Record<LocalNetwork, LocalChain>> {
  const startedAt = performance.now();
  const dataDir = o.dataDir ?? defaultDataDir;
  if (!existsSync(hardhatCli)) throw new Error(`${hardhatCli} is missing: npm install`);
  const reused = await Promise.all(
    LOCAL_NETWORKS.map(async (network) => (o.fresh ? undefined : await reusable(network, o.ports[network], o, dataDir))),
  );
  const launched = await Promise.all(
    LOCAL_NETWORKS.filter((_, i) => reused[i] === undefined).map(async (network) => ({
      network,
      child: await launch(network, o.ports[network], o.blockTimeMs, dataDir),
    })),
  );
  // solc-js (synchronous, about a second on a cache miss) while the new nodes start in their own processes.
  const compiled = launched.length > 0 ? compileTestUsdt(dataDir) : undefined;
  const started =
    compiled === undefined
      ? []
      : await Promise.all(launched.map(({ network, child }) => bringUp(network, o.ports[network], child, o, dataDir, compiled, startedAt)));
  const chains = [...reused.filter((chain) => chain !== undefined), ...started];
  return Object.fromEntries(LOCAL_NETWORKS.map((network) => [network, chains.find((chain) => chain.network === network)])) as Record<
    LocalNetwork,
    LocalChain
  >;
}

/** What `npm run chain status` shows of the node on `port`. */
export async function localChainStatus(network: LocalNetwork, port: number, holder: Address, dataDir = defaultDataDir) {
  const record = readDeployment(port, dataDir);
  if (!record || !(await localChainRunning(port, dataDir))) return undefined;
  const { publicClient } = clients(network, port);
  const [blockNumber, usdtMicros, nativeWei] = await Promise.all([
    publicClient.getBlockNumber(),
    publicClient.readContract({ address: record.tokenAddress, abi: adminAbi, functionName: 'balanceOf', args: [holder] }),
    publicClient.getBalance({ address: holder }),
  ]);
  return { ...record, pid: ourNodePid(port, dataDir), blockNumber, usdtMicros, nativeWei };
}
