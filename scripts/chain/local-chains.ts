/**
 * The local EVM chains (docs/operations/payouts.md, "Local chains"): a Hardhat node per network, in memory, detached (its own
 * process group, log in `<dataDir>/node-<port>/node.log`), the test USDT deployed and the hot wallet funded.
 * A running node is reused while it is ours and still the chain its `deployment.json` records; a restarted
 * node is a new chain (ADR 0024).
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
import { envPort, repoRoot } from '../lib/services';

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

/** The documented failing destination: blacklisted on every local chain, so a transfer to it is mined and reverts. */
export const BLACKLISTED_DESTINATION: Address = '0x000000000000000000000000000000000000dEaD';
/** Hardhat's public development account #0 (worthless off a local chain): the token's deployer and owner. */
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
  /** New chains even where ours run (the old ones are killed: everything on them is gone). */
  fresh?: boolean;
  /** The nodes' folders and the compiled token: `.cache/chain`. */
  dataDir?: string;
}

/** What `deployment.json` in a node's folder records. */
export type LocalChainDeployment = Omit<LocalChain, 'started'> & { hotWallet: Address; blockTimeMs: number; deployedAt: string };

const root = repoRoot();
const defaultDataDir = join(root, '.cache', 'chain');
const hardhatCli = join(root, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');
const hardhatConfig = join(root, 'scripts', 'chain', 'node', 'hardhat.config.js');
const tokenSource = join(root, 'scripts', 'chain', 'contracts', 'TestUsdt.sol');
const nodeFile = (dataDir: string, port: number, file = '') => join(dataDir, `node-${port}`, file);
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
  const key = readFileSync(file, 'utf8').trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`${file} does not hold a 0x-prefixed 32-byte hex private key`);
  return { address: privateKeyToAccount(key as Hex).address, keyFile: file };
}

export interface CompiledToken {
  abi: Abi;
  bytecode: Hex;
  solcVersion: string;
}

/** TestUsdt compiled by solc-js (about a second), cached in `<dataDir>/TestUsdt-<hash of source, solc version, settings>.json`. */
export function compileTestUsdt(dataDir = defaultDataDir): CompiledToken {
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
function ourNodePid(port: number, dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(nodeFile(dataDir, port, 'node.pid'), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const ours = cmdline.includes(hardhatCli) && cmdline.includes(hardhatConfig) && cmdline.includes('node');
    return ours && cmdline[cmdline.indexOf('--port') + 1] === String(port) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Waits until `pid` is gone (a zombie, killed and not yet reaped, counts as gone); false after `deadlineMs`. */
async function waitGone(pid: number, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true) return true;
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await sleep(50);
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

const forget = (port: number, dataDir: string) => {
  for (const file of ['node.pid', 'deployment.json']) rmSync(nodeFile(dataDir, port, file), { force: true });
};

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
      const pid = ourNodePid(ports[network], dataDir);
      if (pid !== undefined) {
        signalGroup(pid, 'SIGTERM');
        if (!(await waitGone(pid, 5_000))) await killLocalChain(ports[network], dataDir);
      }
      forget(ports[network], dataDir);
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

/** Kills our old node on `port` (if any) and starts a new one; fails when something else holds the port. */
async function launch(network: LocalNetwork, port: number, blockTimeMs: number, dataDir: string): Promise<ChildProcess> {
  await killLocalChain(port, dataDir);
  const foreign = await chainIdAt(port);
  if (foreign !== undefined) throw new Error(`port ${port} is taken by a JSON-RPC node that is not this checkout's (chain id ${foreign})`);
  mkdirSync(nodeFile(dataDir, port), { recursive: true });
  const log = openSync(nodeFile(dataDir, port, 'node.log'), 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHAIN_ID: String(LOCAL_CHAIN_IDS[network]),
    BLOCK_TIME_MS: String(blockTimeMs),
    CHAIN_DATA_DIR: nodeFile(dataDir, port, 'hardhat'), // the node creates <artifacts>/build-info there
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
  writeFileSync(nodeFile(dataDir, port, 'node.pid'), `${child.pid}\n`);
  child.unref();
  return child;
}

/** Polls eth_chainId until the new node answers it; fails (with its log's tail) when it exits or the deadline passes. */
async function waitForNode(network: LocalNetwork, port: number, child: ChildProcess, dataDir: string): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  for (;;) {
    const chainId = await chainIdAt(port);
    if (chainId === LOCAL_CHAIN_IDS[network]) return;
    if (chainId !== undefined) throw new Error(`the node on :${port} answers chain id ${chainId}, not ${LOCAL_CHAIN_IDS[network]}`);
    const exited = child.exitCode !== null || child.signalCode !== null;
    if (exited || Date.now() > deadline) {
      let tail = '(no log)';
      try {
        tail = readFileSync(nodeFile(dataDir, port, 'node.log'), 'utf8')
          .trim()
          .split('\n')
          .slice(-15)
          .join('\n');
      } catch {
        // no log
      }
      const why = exited
        ? `exited (${child.exitCode ?? child.signalCode}) before it answered`
        : `did not answer within ${READY_DEADLINE_MS / 1000} s`;
      throw new Error(`the ${network} chain node on :${port} ${why}:\n${tail}`);
    }
    await sleep(100);
  }
}

interface Clients {
  publicClient: PublicClient;
  owner: WalletClient<Transport, Chain, Account>;
}

function clients(network: LocalNetwork, port: number): Clients {
  const rpcUrl = rpcUrlOf(port);
  const chain = defineChain({
    id: LOCAL_CHAIN_IDS[network],
    name: `local ${network}`,
    nativeCurrency: { name: network === 'ETH' ? 'Ether' : 'POL', symbol: network === 'ETH' ? 'ETH' : 'POL', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0, timeout: 10_000 });
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 100 }),
    owner: createWalletClient({ account: privateKeyToAccount(LOCAL_OWNER_KEY), chain, transport }),
  };
}

// A call sent before the previous transaction is mined cannot be estimated: a fixed limit, well above the 60k each needs.
const CALL_GAS = 150_000n;

type OwnerTx = { to: Address; data?: Hex; value?: bigint } | { deploy: CompiledToken };

/** The owner's transactions at consecutive nonces, sent without waiting (one block with interval mining); fails unless all succeed. */
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

// The owner's calls and balanceOf, written here so that funding needs no compiler.
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
    ...fundingTxs(tokenAddress, o.hotWallet, DEFAULT_USDT_MICROS, DEFAULT_NATIVE_WEI),
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

/** The deployment record of our node on `port`, if there is one. */
export function readDeployment(port: number, dataDir = defaultDataDir): LocalChainDeployment | undefined {
  try {
    return JSON.parse(readFileSync(nodeFile(dataDir, port, 'deployment.json'), 'utf8')) as LocalChainDeployment;
  } catch {
    return undefined;
  }
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

/**
 * One local chain per network on `o.ports`, each with TestUsdt deployed, the hot wallet funded and
 * 0x…dEaD blacklisted: our running ones reused (unless `fresh`), the others started, in parallel.
 */
export async function ensureLocalChains(o: EnsureLocalChainsOptions): Promise<Record<LocalNetwork, LocalChain>> {
  const startedAt = performance.now();
  const dataDir = o.dataDir ?? defaultDataDir;
  if (!existsSync(hardhatCli)) throw new Error(`${hardhatCli} is missing: npm install`);
  const reused = await Promise.all(
    LOCAL_NETWORKS.map(async (network) => (o.fresh ? undefined : reusable(network, o.ports[network], o, dataDir))),
  );
  const toStart = LOCAL_NETWORKS.filter((_, i) => reused[i] === undefined);
  const children = await Promise.all(toStart.map((network) => launch(network, o.ports[network], o.blockTimeMs, dataDir)));
  // solc-js (synchronous, about a second on a cache miss) while the new nodes start in their own processes.
  const compiled = toStart.length > 0 ? compileTestUsdt(dataDir) : undefined;
  const started = await Promise.all(
    toStart.map(async (network, i): Promise<LocalChain> => {
      const port = o.ports[network];
      await waitForNode(network, port, children[i], dataDir);
      const record = await deploy(network, port, o, compiled as CompiledToken);
      writeFileSync(nodeFile(dataDir, port, 'deployment.json'), `${JSON.stringify(record, null, 2)}\n`);
      const { chainId, rpcUrl, tokenAddress, genesisHash } = record;
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      console.log(`chain: ${network} local node on :${port} (chain id ${chainId}), USDT at ${tokenAddress}, started in ${seconds} s`);
      return { network, rpcUrl, chainId, tokenAddress, genesisHash, started: true };
    }),
  );
  const chains = [...reused, ...started];
  return Object.fromEntries(LOCAL_NETWORKS.map((network) => [network, chains.find((chain) => chain?.network === network)])) as Record<
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
