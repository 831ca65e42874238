/**
 * `npm run bench:payouts`: how many USDT payouts a second ONE hot wallet sustains on a local chain, and how
 * long a withdrawal takes from `created` to `sent` and to `settled`, held against a floor measured in the
 * same run on the same node, once before the service and once after (their mean): a bare script (viem, no
 * service, no database) that signs and pushes the same transfers from a funded wallet of its own, at
 * consecutive nonces. Not a test: it prints numbers. See
 * README.md next to this file ("Payouts on a local chain").
 *
 *   npm run bench:payouts
 *   npm run bench:payouts -- --no-build --count 300 --block-time-ms 1000          (quick)
 *   npm run bench:payouts -- --poll-ms 250 --batch 200                            (the service's own knobs)
 *
 * Options: --count N (1000: transfers of the floor, withdrawals of the service), --block-time-ms MS (1000),
 * --network ETH|MATIC (MATIC), --rate R (0: every withdrawal asked at once, by --concurrency 16 clients; R: R a
 * second on a schedule, the floor's transfers too), --poll-ms MS (CHAIN_POLL_MS, 1000 as npm start),
 * --batch N (CHAIN_BATCH, the service's default 200), --confirmations N (3, as npm start), --cpu-prof
 * (profiles the withdrawals service: --cpu-prof in its NODE_OPTIONS, the measured window's samples
 * summarised), --trace-rpc (the service reaches its nodes through a counting proxy in this process: calls
 * per payout and their latency, by JSON-RPC method), --trace-pg (the withdrawals service reaches PostgreSQL
 * through a proxy here that times each statement by its prepared name: statements per payout and the time
 * waited for them), --no-build, --app-root DIR (PAYOUTS_BENCH_APP_ROOT: run the apps
 * from another checkout's built dist/ and apply its migrations, e.g. a commit unpacked with `git archive` and
 * built there, so that a working tree others are editing is not what is measured; implies --no-build here).
 *
 * Its own broker, database, ports and chains (environment to move them): PAYOUTS_BENCH_KAFKA_PORT (26092),
 * PAYOUTS_BENCH_DATABASE_URL (partner_bench_payouts, dropped first), PAYOUTS_BENCH_GATEWAY_PORT (26000),
 * PAYOUTS_BENCH_HEALTH_PORT_BASE (26100), PAYOUTS_BENCH_CHAIN_PORT_ETH / _MATIC (26545 / 26546, new chains
 * every run). All below Linux's ephemeral range (32768-60999), where a busy machine's outgoing connections
 * took a listener's port once (EADDRINUSE). Logs in .cache/bench/payouts-logs, results in .cache/bench/payouts.json. Everything it started
 * is stopped at the end, also on Ctrl-C.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect, createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Pool } from 'undici';
import { createPublicClient, encodeFunctionData, Hex, http, keccak256, parseAbi, parseEther, parseGwei, PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ApiClient, newCpf, newUuid, VALID_ADDRESS } from '../../libs/testing/src';
import { chainAppEnv, LocalChainTimings } from '../chain/chain-env';
import { ensureHotWalletKey, ensureLocalChains, fundFromOwner, LocalChain, LocalNetwork, stopLocalChains } from '../chain/local-chains';
import { runOnRequiredNode } from '../lib/node-runtime';
import { APPS, AppName, healthPortOf, repoRoot } from '../lib/services';
import { kafka, migrate, recreateDatabase, RunningStack, StackOptions, startApp, waitUntilReady } from '../stack/stack';
import { distribution, Distribution, LoadClient, onSchedule, sleep, USDT } from './bench-load';
import { BenchCounterparties, startBenchCounterparties } from './bench-counterparties';
import { cpuMs } from './bench-probes';
import { buildWorkspace } from '../lib/build-stamp';

runOnRequiredNode();

// ------------------------------------------------------------------------------------ settings
const root = repoRoot();
const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const KAFKA_PORT = envNumber('PAYOUTS_BENCH_KAFKA_PORT', 26092);
const DATABASE_URL = process.env.PAYOUTS_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_payouts';
const GATEWAY_PORT = envNumber('PAYOUTS_BENCH_GATEWAY_PORT', 26000);
const HEALTH_PORT_BASE = envNumber('PAYOUTS_BENCH_HEALTH_PORT_BASE', 26100);
const CHAIN_PORTS: Record<LocalNetwork, number> = {
  ETH: envNumber('PAYOUTS_BENCH_CHAIN_PORT_ETH', 26545),
  MATIC: envNumber('PAYOUTS_BENCH_CHAIN_PORT_MATIC', 26546),
};
const OUT_DIR = join(root, '.cache', 'bench');
const LOG_DIR = join(OUT_DIR, 'payouts-logs');
const PROFILE_DIR = join(OUT_DIR, 'payouts-prof');
const CHAIN_DATA_DIR = join(root, '.cache', 'chain');
const KAFKA_DATA_DIR = join(root, '.cache', 'kafka', `data-${KAFKA_PORT}`);
/** What every transfer pays (floor and service alike): 1 USDT to the same address. */
const AMOUNT_MICROS = BigInt(USDT);
/** The service's gas limit of a payout (CHAIN_GAS_LIMIT's default): the floor signs the same. */
const GAS_LIMIT = 100_000n;
/** chainAppEnv's CHAIN_MIN_PRIORITY_FEE_GWEI on local chains: the tip the floor offers too. */
const PRIORITY_FEE_WEI = parseGwei('1');
const USERS = 8;
const USER_BALANCE_MICROS = 1_000_000 * USDT;
const TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 value)']);

interface Options {
  count: number;
  blockTimeMs: number;
  network: LocalNetwork;
  rate: number;
  concurrency: number;
  pollMs: number;
  batch: number | null;
  confirmations: number;
  cpuProf: boolean;
  traceRpc: boolean;
  tracePg: boolean;
  build: boolean;
  /** Another checkout whose dist/ the apps run from (and whose migrations are applied): a commit measured apart from a working tree. */
  appRoot: string | null;
}

function parseOptions(argv: string[]): Options {
  const flags = new Map<string, string>();
  const booleans = ['no-build', 'cpu-prof', 'trace-rpc', 'trace-pg', 'help'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (booleans.includes(arg.slice(2))) flags.set(arg.slice(2), 'true');
    else flags.set(arg.slice(2), argv[++i] ?? '');
  }
  if (flags.has('help')) {
    console.log(
      'usage: npm run bench:payouts -- [--count N] [--block-time-ms MS] [--network ETH|MATIC] [--rate R] [--concurrency C]\n' +
        '                                [--poll-ms MS] [--batch N] [--confirmations N] [--cpu-prof] [--trace-rpc] [--trace-pg] [--no-build] [--app-root DIR]',
    );
    process.exit(0);
  }
  const known = ['count', 'block-time-ms', 'network', 'rate', 'concurrency', 'poll-ms', 'batch', 'confirmations', 'app-root', ...booleans];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown option --${name}`);
  const num = (flag: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) => {
    const raw = flags.get(flag) ?? String(fallback);
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${flag} must be a number from ${min} to ${max}, got ${raw}`);
    return n;
  };
  const network = (flags.get('network') ?? 'MATIC').toUpperCase();
  const appRoot = flags.get('app-root') ?? process.env.PAYOUTS_BENCH_APP_ROOT ?? null;
  if (network !== 'ETH' && network !== 'MATIC') throw new Error(`--network takes ETH or MATIC, got ${network}`);
  return {
    count: Math.round(num('count', 1000, 1)),
    blockTimeMs: Math.round(num('block-time-ms', 1000, 100)),
    network,
    rate: num('rate', 0, 0),
    concurrency: Math.round(num('concurrency', 16, 1)),
    pollMs: Math.round(num('poll-ms', 1000, 10)),
    batch: flags.has('batch') ? Math.round(num('batch', 50, 1, 1000)) : null,
    confirmations: Math.round(num('confirmations', 3, 1, 10_000)),
    cpuProf: flags.has('cpu-prof'),
    traceRpc: flags.has('trace-rpc'),
    tracePg: flags.has('trace-pg'),
    build: !flags.has('no-build') && appRoot === null,
    appRoot,
  };
}

// ------------------------------------------------------------------------------------- helpers
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const fmt = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n)
    ? '-'
    : Math.abs(n) >= 100
      ? n.toFixed(0)
      : Math.abs(n) >= 10
        ? n.toFixed(1)
        : n.toFixed(2);
const ratio = (service: number | null | undefined, floor: number | null | undefined) =>
  service === null || service === undefined || !floor ? null : round(service / floor, 2);
const table = (head: string[], rows: string[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)].map((l) => `  ${l}`).join('\n');
};
/** Wall-clock milliseconds with sub-millisecond precision (the service's and PostgreSQL's times are on the same clock). */
const nowMs = () => performance.timeOrigin + performance.now();
/** The monotonic clock in microseconds: V8's CPU profiles time their samples on it. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const pidOf = (file: string): number | undefined => {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

// ------------------------------------------------------------------------------------ the chain, watched
interface SeenBlock {
  number: bigint;
  /** When this bench first saw the block (wall clock, ms): eth_blockNumber polled every few ms. */
  seenAt: number;
  transactions: number;
  gasUsed: bigint;
  gasLimit: bigint;
}

/**
 * Polls the node's block number every `everyMs` and reads each new block's transaction hashes, so that
 * both the floor and the service are timed "mined" by the same clock: when the block holding it appeared.
 */
class BlockWatcher {
  readonly blocks = new Map<bigint, SeenBlock>();
  private readonly minedIn = new Map<string, bigint>();
  private last = -1n;
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly client: PublicClient,
    private readonly everyMs = 20,
  ) {}

  async start(): Promise<void> {
    this.last = await this.client.getBlockNumber({ cacheTime: 0 });
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** The block that mined `hash`, and when it was seen. */
  mined(hash: string): SeenBlock | undefined {
    const n = this.minedIn.get(hash.toLowerCase());
    return n === undefined ? undefined : this.blocks.get(n);
  }

  /** When block `n` was seen (undefined: not yet). */
  seenAt(n: bigint): number | undefined {
    return this.blocks.get(n)?.seenAt;
  }

  /** Blocks seen within [from, to] (wall clock): their mean interval and how full they were. */
  between(from: number, to: number) {
    const blocks = [...this.blocks.values()].filter((b) => b.seenAt >= from && b.seenAt <= to).sort((a, b) => Number(a.number - b.number));
    const intervals = blocks.slice(1).map((b, i) => b.seenAt - blocks[i].seenAt);
    const withTxs = blocks.filter((b) => b.transactions > 0);
    return {
      blocks: blocks.length,
      meanIntervalMs: intervals.length ? round(intervals.reduce((a, b) => a + b, 0) / intervals.length, 1) : null,
      maxTransactionsPerBlock: Math.max(0, ...blocks.map((b) => b.transactions)),
      blocksWithTransactions: withTxs.length,
      meanTransactionsPerBusyBlock: withTxs.length ? round(withTxs.reduce((n, b) => n + b.transactions, 0) / withTxs.length, 1) : 0,
      maxGasShare: blocks.length ? round(Math.max(...blocks.map((b) => Number(b.gasUsed) / Number(b.gasLimit))), 3) : 0,
    };
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const head = await this.client.getBlockNumber({ cacheTime: 0 });
        const seenAt = nowMs();
        for (let n = this.last + 1n; n <= head; n++) {
          const block = await this.client.getBlock({ blockNumber: n });
          this.blocks.set(n, {
            number: n,
            seenAt,
            transactions: block.transactions.length,
            gasUsed: block.gasUsed,
            gasLimit: block.gasLimit,
          });
          for (const hash of block.transactions) this.minedIn.set(hash.toLowerCase(), n);
          this.last = n;
        }
      } catch (error) {
        console.error(`block watcher: ${(error as Error).message.split('\n')[0]}`);
      }
      await sleep(this.everyMs);
    }
  }
}

// ------------------------------------------------------------------------------------ the service's JSON-RPC, counted
export interface RpcMethodStats {
  calls: number;
  p50Ms: number;
  p99Ms: number;
  totalS: number;
}

/**
 * A pass-through JSON-RPC proxy in front of one node (--trace-rpc): the service's calls go through it, each
 * counted by method with the node's answer time (the hop itself is not in it), while `recording`.
 */
class RpcTap {
  recording = false;
  url = '';
  private readonly latencies = new Map<string, number[]>();
  private server?: Server;
  private readonly pool: Pool;
  private readonly path: string;

  constructor(upstream: string) {
    const u = new URL(upstream);
    this.pool = new Pool(u.origin, { connections: 64, keepAliveTimeout: 30_000 });
    this.path = u.pathname || '/';
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.forward(Buffer.concat(chunks), res));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
    await this.pool.close();
  }

  stats(): Record<string, RpcMethodStats> {
    const out: Record<string, RpcMethodStats> = {};
    for (const [method, values] of this.latencies) {
      const d = distribution(values);
      out[method] = {
        calls: values.length,
        p50Ms: d?.p50 ?? 0,
        p99Ms: d?.p99 ?? 0,
        totalS: round(values.reduce((a, b) => a + b, 0) / 1000, 2),
      };
    }
    return out;
  }

  private async forward(body: Buffer, res: import('node:http').ServerResponse): Promise<void> {
    let methods: string[] = [];
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | { method?: string }[];
      methods = (Array.isArray(parsed) ? parsed : [parsed]).map((r) => String(r.method));
    } catch {
      methods = ['(unparsed)'];
    }
    const t0 = performance.now();
    try {
      const up = await this.pool.request({ method: 'POST', path: this.path, headers: { 'content-type': 'application/json' }, body });
      const answer = Buffer.from(await up.body.arrayBuffer());
      const ms = performance.now() - t0;
      if (this.recording)
        for (const m of methods) {
          const values = this.latencies.get(m) ?? [];
          values.push(ms / methods.length);
          this.latencies.set(m, values);
        }
      res.writeHead(up.statusCode, { 'content-type': 'application/json' }).end(answer);
    } catch (error) {
      res.writeHead(502).end((error as Error).message);
    }
  }
}

// ------------------------------------------------------------------------------------ the service's PostgreSQL, counted
/**
 * A pass-through TCP proxy in front of PostgreSQL for the withdrawals service alone (--trace-pg): it reads the
 * wire protocol's framing on both sides and times each exchange, from the client's first message after the
 * server was last ready (ReadyForQuery) to the next ReadyForQuery, named by the prepared statement it binds
 * (the services name theirs: `payout_assign`, ...) or the simple query's first words (BEGIN, COMMIT). What it
 * gives: the statements per payout and the time the service spent waiting for them, while `recording`.
 * Only plain connections (no TLS: the bench's DATABASE_URL has none).
 */
class PgTap {
  recording = false;
  port = 0;
  private readonly latencies = new Map<string, number[]>();
  private server?: TcpServer;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {}

  async start(): Promise<number> {
    const server = createTcpServer((client) => this.pipe(client));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }

  stats(): Record<string, RpcMethodStats> {
    const out: Record<string, RpcMethodStats> = {};
    for (const [name, values] of this.latencies) {
      const d = distribution(values);
      out[name] = {
        calls: values.length,
        p50Ms: d?.p50 ?? 0,
        p99Ms: d?.p99 ?? 0,
        totalS: round(values.reduce((a, b) => a + b, 0) / 1000, 2),
      };
    }
    return out;
  }

  private pipe(client: Socket): void {
    const upstream = connect(this.upstreamPort, this.upstreamHost);
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let fromClient = Buffer.alloc(0);
    let fromServer = Buffer.alloc(0);
    let started = false; // the startup message (no type byte) is through
    let current: { name: string; t0: number } | undefined;
    const words = (text: string) => text.trim().split(/\s+/).slice(0, 3).join(' ').slice(0, 40);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      fromClient = Buffer.concat([fromClient, chunk]);
      for (;;) {
        if (!started) {
          if (fromClient.length < 4) return;
          const len = fromClient.readInt32BE(0);
          if (fromClient.length < len) return;
          fromClient = fromClient.subarray(len);
          started = true;
          continue;
        }
        if (fromClient.length < 5) return;
        const type = String.fromCharCode(fromClient[0]);
        const len = fromClient.readInt32BE(1);
        if (fromClient.length < len + 1) return;
        const body = fromClient.subarray(5, len + 1);
        const cstring = (from: number) => body.subarray(from, body.indexOf(0, from)).toString('utf8');
        let name: string | undefined;
        if (type === 'Q') name = words(cstring(0));
        else if (type === 'P') name = cstring(0) || words(cstring(body.indexOf(0) + 1));
        else if (type === 'B') name = cstring(body.indexOf(0) + 1) || undefined;
        if (!current && type !== 'X') current = { name: name ?? type, t0: performance.now() };
        else if (current && name && (current.name.length === 1 || type === 'B')) current.name = name;
        fromClient = fromClient.subarray(len + 1);
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      fromServer = Buffer.concat([fromServer, chunk]);
      for (;;) {
        if (fromServer.length < 5) return;
        const len = fromServer.readInt32BE(1);
        if (fromServer.length < len + 1) return;
        if (fromServer[0] === 0x5a /* Z: ReadyForQuery */ && current) {
          if (this.recording) {
            const values = this.latencies.get(current.name) ?? [];
            values.push(performance.now() - current.t0);
            this.latencies.set(current.name, values);
          }
          current = undefined;
        }
        fromServer = fromServer.subarray(len + 1);
      }
    });
  }
}

// ------------------------------------------------------------------------------------ CPU and metrics
interface CpuSources {
  procs: () => Map<string, number | undefined>;
  db?: Client;
}

type CpuSnapshot = Map<string, number>;

async function cpuSnapshot(s: CpuSources): Promise<CpuSnapshot> {
  const out = new Map<string, number>();
  for (const [name, pid] of s.procs()) {
    const ms = cpuMs(pid);
    if (ms !== null) out.set(name, ms);
  }
  const own = process.cpuUsage();
  out.set('bench', (own.user + own.system) / 1000);
  if (s.db) {
    const { rows } = await s.db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    for (const { pid } of rows) {
      const ms = cpuMs(pid);
      if (ms !== null) out.set(`pg:${pid}`, ms);
    }
  }
  return out;
}

/** CPU ms per unit of work between two snapshots, by process (PostgreSQL's backends summed). */
function cpuPer(before: CpuSnapshot, after: CpuSnapshot, units: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, a] of after) {
    const name = key.startsWith('pg:') ? 'postgres' : key;
    const b = before.get(key) ?? (key.startsWith('pg:') ? 0 : undefined);
    if (b === undefined) continue;
    out[name] = (out[name] ?? 0) + (a - b);
  }
  for (const k of Object.keys(out)) out[k] = round(out[k] / Math.max(1, units), 2);
  return out;
}

/** The sum of each named series (all label sets) on a Prometheus page. */
async function scrape(url: string, names: string[]): Promise<Record<string, number>> {
  const text = await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    for (const name of names) {
      const m = new RegExp(`^${name}(\\{([^}]*)\\})? ([0-9.eE+-]+)$`).exec(line);
      if (m) out[`${name}${m[2] ? `{${m[2]}}` : ''}`] = Number(m[3]);
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------ the floor
interface PassTimes {
  /** Per transfer or withdrawal, ms from being asked for (the floor) or created (the service). */
  toSent: Distribution | null;
  toMined: Distribution | null;
  toFinal: Distribution | null;
  sentToMined: Distribution | null;
}

interface FloorResult {
  count: number;
  mined: number;
  /** Transfers mined per second: count over first ask → last mined block seen. */
  minedPerSecond: number;
  /** Transfers final (confirmations) per second, the same way: the most a settled state could follow. */
  finalPerSecond: number;
  submitPerSecond: number;
  times: PassTimes;
  gasUsedMean: number;
  effectiveGasPriceGwei: number;
  gasCostGwei: number;
  chain: ReturnType<BlockWatcher['between']>;
  cpuMsPerTransfer: Record<string, number>;
}

/**
 * The floor: a funded wallet of the bench's own signs `count` USDT transfers (the service's calldata, gas
 * limit and fees) at consecutive nonces and pushes each with eth_sendRawTransaction as soon as it is signed
 * (or on the --rate schedule), then waits until every one is mined and final by the same confirmations.
 */
async function runFloor(
  o: Options,
  chain: LocalChain,
  client: PublicClient,
  watcher: BlockWatcher,
  key: Hex,
  cpu: CpuSources,
): Promise<FloorResult> {
  const account = privateKeyToAccount(key);
  const baseNonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const block = await client.getBlock({ blockTag: 'latest' });
  const baseFee = block.baseFeePerGas ?? 0n;
  const maxFeePerGas = 2n * baseFee + PRIORITY_FEE_WEI;
  const data = encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [VALID_ADDRESS, AMOUNT_MICROS] });
  const asked: number[] = new Array<number>(o.count);
  const submitted: number[] = new Array<number>(o.count);
  const hashes: Hex[] = new Array<Hex>(o.count);
  const send = async (i: number, askedAt: number) => {
    asked[i] = askedAt;
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: baseNonce + i,
      to: chain.tokenAddress,
      data,
      gas: GAS_LIMIT,
      maxFeePerGas,
      maxPriorityFeePerGas: PRIORITY_FEE_WEI,
      value: 0n,
    });
    hashes[i] = keccak256(raw);
    await client.request({ method: 'eth_sendRawTransaction', params: [raw] });
    submitted[i] = nowMs();
  };
  const cpu0 = await cpuSnapshot(cpu);
  const t0 = nowMs();
  if (o.rate > 0) {
    const origin = performance.timeOrigin;
    await onSchedule(
      o.rate,
      o.count,
      () => interrupted,
      (i, scheduled) => send(i, origin + scheduled),
    );
  } else {
    for (let i = 0; i < o.count && !interrupted; i++) await send(i, t0);
  }
  const submittedAll = nowMs();
  const deadline = Date.now() + 120_000 + o.count * 100;
  const finalOf = (h: Hex) => {
    const b = watcher.mined(h);
    return b ? watcher.seenAt(b.number + BigInt(o.confirmations - 1)) : undefined;
  };
  while (!interrupted && hashes.some((h) => h && finalOf(h) === undefined)) {
    if (Date.now() > deadline) throw new Error('floor: transfers not mined and final within the deadline');
    await sleep(50);
  }
  const cpu1 = await cpuSnapshot(cpu);
  const mined = hashes.map((h) => watcher.mined(h)?.seenAt ?? NaN);
  const finals = hashes.map((h) => finalOf(h) ?? NaN);
  const lastMined = Math.max(...mined);
  const lastFinal = Math.max(...finals);
  // Gas from the receipts, after the measured window.
  const receipts: { gasUsed: bigint; effectiveGasPrice: bigint }[] = [];
  for (let i = 0; i < hashes.length; i += 50)
    receipts.push(...(await Promise.all(hashes.slice(i, i + 50).map((hash) => client.getTransactionReceipt({ hash })))));
  const failed = receipts.filter((r) => (r as { status?: string }).status !== 'success').length;
  if (failed > 0) throw new Error(`floor: ${failed} transfers reverted`);
  const gasUsedMean = receipts.reduce((n, r) => n + Number(r.gasUsed), 0) / receipts.length;
  const priceMean = receipts.reduce((n, r) => n + Number(r.effectiveGasPrice), 0) / receipts.length;
  const costMean = receipts.reduce((n, r) => n + Number(r.gasUsed * r.effectiveGasPrice), 0) / receipts.length;
  return {
    count: o.count,
    mined: mined.filter(Number.isFinite).length,
    minedPerSecond: round(o.count / ((lastMined - t0) / 1000), 1),
    finalPerSecond: round(o.count / ((lastFinal - t0) / 1000), 1),
    submitPerSecond: round(o.count / ((submittedAll - t0) / 1000), 1),
    times: {
      toSent: distribution(submitted.map((s, i) => s - asked[i])),
      toMined: distribution(mined.map((m, i) => m - asked[i])),
      toFinal: distribution(finals.map((f, i) => f - asked[i])),
      sentToMined: distribution(mined.map((m, i) => m - submitted[i])),
    },
    gasUsedMean: round(gasUsedMean, 0),
    effectiveGasPriceGwei: round(priceMean / 1e9, 4),
    gasCostGwei: round(costMean / 1e9, 1),
    chain: watcher.between(t0, lastFinal),
    cpuMsPerTransfer: cpuPer(cpu0, cpu1, o.count),
  };
}

// ------------------------------------------------------------------------------------ the service
interface ServiceResult {
  count: number;
  created: number;
  non201: Record<string, number>;
  settled: number;
  failed: number;
  timedOut: boolean;
  createPerSecond: number;
  /** Withdrawals mined per second: count over first created → last mined block seen (the floor's measure). */
  minedPerSecond: number;
  /** Withdrawals settled per second: count over first created → last settled. */
  settledPerSecond: number;
  /** Settled per second from the first settled to the last (the pipeline's pace once it flows). */
  settledPerSecondSteady: number | null;
  /** From the service's rows and feed events (occurred_at: the service's time of each move). */
  times: PassTimes & { toSigned: Distribution | null; toSettledInFeed: Distribution | null };
  gasUsedMean: number | null;
  effectiveGasPriceGwei: number | null;
  gasCostGwei: number | null;
  replaced: number;
  chain: ReturnType<BlockWatcher['between']>;
  cpuMsPerPayout: Record<string, number>;
  /** The payout rounds over the window, from the withdrawals service's /metrics. */
  rounds: { runs: number; meanMs: number | null; broadcasts: Record<string, number> };
  /** `SELECT 1` from this process, 3 a second over the window: a statement's round trip on this machine under this load. */
  dbRoundTripMs: Distribution | null;
  /** PostgreSQL commits per payout over the window (pg_stat_database: every service's, creation included). */
  commitsPerPayout: number | null;
  /** With --trace-rpc: the service's JSON-RPC calls to the network's node over the window, by method. */
  rpc: Record<string, RpcMethodStats & { perPayout: number }> | null;
  /** With --trace-pg: the withdrawals service's statements over the window (its every connection), by name. */
  pg: Record<string, RpcMethodStats & { perPayout: number }> | null;
  /** Each second: how many are created (not signed), signed and not sent, sent and not mined, mined and not settled, settled. */
  timeline: Array<{ atS: number; unsigned: number; signed: number; sent: number; mined: number; settled: number }>;
  window: { startUs: number; endUs: number };
}

const perPayout = (stats: Record<string, RpcMethodStats>, payouts: number) =>
  Object.fromEntries(Object.entries(stats).map(([m, st]) => [m, { ...st, perPayout: round(st.calls / Math.max(1, payouts), 2) }]));

interface Row {
  id: number;
  state: string;
  created_ms: number;
  signed_ms: number | null;
  tx_hash: Hex | null;
  gas_used: string | null;
  effective_gas_price_wei: string | null;
  gas_cost_wei: string | null;
  versions: number;
}

async function runService(
  o: Options,
  gatewayUrl: string,
  adminKey: string,
  db: Client,
  watcher: BlockWatcher,
  cpu: CpuSources,
  metricsUrl: string,
  tap: RpcTap | undefined,
  pgTap: PgTap | undefined,
): Promise<ServiceResult> {
  const admin = new ApiClient(gatewayUrl, { 'x-admin-key': adminKey });
  const partner = await admin.post<{ id: string; api_key: string }>('/sandbox/v1/partners', {
    name: 'payouts bench',
    rate_limit_per_second: 1_000_000,
  });
  if (partner.status !== 201) throw new Error(`partner creation failed: ${partner.status} ${JSON.stringify(partner.body)}`);
  const api = new ApiClient(gatewayUrl, { 'x-api-key': partner.body.api_key });
  const users: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const document = newCpf();
    const created = await api.post('/sandbox/v1/users', { document, usdt_micros: USER_BALANCE_MICROS });
    if (created.status !== 201) throw new Error(`user creation failed: ${created.status} ${JSON.stringify(created.body)}`);
    users.push(document);
  }
  const load = new LoadClient(gatewayUrl, partner.body.api_key);
  const ids: number[] = [];
  const non201: Record<string, number> = {};
  const create = async (i: number) => {
    const body = {
      document: users[i % users.length],
      idempotency_key: newUuid(),
      address: VALID_ADDRESS,
      usdtmicros: Number(AMOUNT_MICROS),
      fee_choice: 'MEDIUM',
      network: o.network,
    };
    try {
      const res = await load.post('/partner/v1/withdrawals/usdt', body);
      if (res.status === 201) ids.push((JSON.parse(res.text) as { id: number }).id);
      else non201[`${res.status} ${res.text.slice(0, 120)}`] = (non201[`${res.status} ${res.text.slice(0, 120)}`] ?? 0) + 1;
    } catch (error) {
      non201[`error ${(error as Error).message}`] = (non201[`error ${(error as Error).message}`] ?? 0) + 1;
    }
  };

  const metrics0 = await scrape(metricsUrl, [
    'periodic_job_duration_seconds_sum',
    'periodic_job_duration_seconds_count',
    'payout_broadcasts_total',
  ]);
  const commits = async () =>
    Number((await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n);
  const commits0 = await commits();
  const cpu0 = await cpuSnapshot(cpu);
  if (tap) tap.recording = true;
  if (pgTap) pgTap.recording = true;
  const startUs = monotonicUs();
  const t0 = nowMs();
  const timeline: ServiceResult['timeline'] = [];
  const roundTrips: number[] = [];
  let sampling = true;
  let progress = { settled: 0, failed: 0 };
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await db.query<{ unsigned: number; signed: number; sent: number; mined: number; settled: number; failed: number }>(
        `SELECT count(*) FILTER (WHERE state = 'created' AND nonce IS NULL)::int AS unsigned,
                count(*) FILTER (WHERE state = 'created' AND nonce IS NOT NULL)::int AS signed,
                count(*) FILTER (WHERE state = 'sent' AND block_number IS NULL)::int AS sent,
                count(*) FILTER (WHERE state = 'sent' AND block_number IS NOT NULL)::int AS mined,
                count(*) FILTER (WHERE state = 'settled')::int AS settled,
                count(*) FILTER (WHERE state = 'failed')::int AS failed
         FROM withdrawals.withdrawals WHERE partner_id = $1`,
        [partner.body.id],
      );
      const r = rows[0];
      progress = { settled: r.settled, failed: r.failed };
      // A statement's round trip to PostgreSQL on this machine now (what each of the rounds' statements waits at least).
      for (let k = 0; k < 3; k++) {
        const q0 = performance.now();
        await db.query('SELECT 1');
        roundTrips.push(performance.now() - q0);
      }
      timeline.push({
        atS: round((nowMs() - t0) / 1000, 1),
        unsigned: r.unsigned,
        signed: r.signed,
        sent: r.sent,
        mined: r.mined,
        settled: r.settled,
      });
      await sleep(1000);
    }
  })();

  if (o.rate > 0)
    await onSchedule(
      o.rate,
      o.count,
      () => interrupted,
      (i) => create(i),
    );
  else {
    let next = 0;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (!interrupted) {
          const i = next++;
          if (i >= o.count) return;
          await create(i);
        }
      }),
    );
  }
  const createdAll = nowMs();
  const deadline = Date.now() + 120_000 + o.count * 1_000;
  let lastProgress = { at: Date.now(), done: 0 };
  let timedOut = false;
  while (!interrupted && progress.settled + progress.failed < ids.length) {
    const done = progress.settled + progress.failed;
    if (done > lastProgress.done) lastProgress = { at: Date.now(), done };
    if (Date.now() > deadline || Date.now() - lastProgress.at > 120_000) {
      timedOut = true;
      console.error(`service: ${ids.length - done} withdrawals not final (no progress for 120 s, or past the deadline)`);
      break;
    }
    await sleep(200);
  }
  const endUs = monotonicUs();
  if (tap) tap.recording = false;
  if (pgTap) pgTap.recording = false;
  const cpu1 = await cpuSnapshot(cpu);
  const metrics1 = await scrape(metricsUrl, [
    'periodic_job_duration_seconds_sum',
    'periodic_job_duration_seconds_count',
    'payout_broadcasts_total',
  ]);
  sampling = false;
  await sampler;
  await sleep(1_500); // PostgreSQL 15 flushes a backend's counters once it idles, at most once a second
  const commits1 = await commits();

  // The feed's events: each move's time as the service recorded it (occurred_at) and when the feed had it.
  const deadlineFeed = Date.now() + 30_000;
  type FeedRow = { resource_id: string; state: string; occurred_ms: number; feed_ms: number };
  let feed: FeedRow[] = [];
  for (;;) {
    feed = (
      await db.query<FeedRow>(
        `SELECT resource_id, state, EXTRACT(EPOCH FROM occurred_at)::float8 * 1000 AS occurred_ms, EXTRACT(EPOCH FROM created_at)::float8 * 1000 AS feed_ms
         FROM events.feed_events WHERE partner_id = $1 AND type = 'usdt_withdrawal'`,
        [partner.body.id],
      )
    ).rows;
    if (
      feed.filter((f) => f.state === 'settled' || f.state === 'failed').length >= progress.settled + progress.failed ||
      Date.now() > deadlineFeed
    )
      break;
    await sleep(250);
  }
  const eventOf = new Map(feed.map((f) => [`${f.resource_id}:${f.state}`, f]));
  const { rows } = await db.query<Row>(
    `SELECT w.id, w.state, EXTRACT(EPOCH FROM w.created_at)::float8 * 1000 AS created_ms, w.tx_hash,
            w.gas_used::text, w.effective_gas_price_wei::text, w.gas_cost_wei::text,
            (SELECT EXTRACT(EPOCH FROM min(p.created_at))::float8 * 1000 FROM withdrawals.payout_transactions p WHERE p.withdrawal_id = w.id) AS signed_ms,
            (SELECT count(*) FROM withdrawals.payout_transactions p WHERE p.withdrawal_id = w.id)::int AS versions
     FROM withdrawals.withdrawals w WHERE w.id = ANY($1::int[])`,
    [ids],
  );
  const finalRows = rows.filter((r) => r.state === 'settled' || r.state === 'failed');
  const sentAt = (r: Row) => eventOf.get(`${r.id}:sent`)?.occurred_ms;
  const settledAt = (r: Row) => eventOf.get(`${r.id}:${r.state}`)?.occurred_ms;
  const minedAt = (r: Row) => (r.tx_hash ? watcher.mined(r.tx_hash)?.seenAt : undefined);
  const spans = (pick: (r: Row) => number | undefined, from: (r: Row) => number | undefined = (r) => r.created_ms) =>
    distribution(
      rows.flatMap((r) => {
        const a = from(r);
        const b = pick(r);
        return a === undefined || b === undefined || b === null ? [] : [b - a];
      }),
    );
  const firstCreated = Math.min(...rows.map((r) => r.created_ms));
  const settledTimes = finalRows.map(settledAt).filter((t): t is number => t !== undefined);
  const minedTimes = rows.map(minedAt).filter((t): t is number => t !== undefined);
  const lastSettled = Math.max(...settledTimes);
  const firstSettled = Math.min(...settledTimes);
  const gas = finalRows.filter((r) => r.gas_used !== null);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  // Series carry the app's default label too: summed over every label set that has the ones asked for.
  const d = (name: string, ...labels: string[]) =>
    Object.keys(metrics1)
      .filter((k) => (k === name || k.startsWith(`${name}{`)) && labels.every((l) => k.includes(l)))
      .reduce((n, k) => n + metrics1[k] - (metrics0[k] ?? 0), 0);
  const runs = d('periodic_job_duration_seconds_count', 'job="payouts"');
  const broadcasts: Record<string, number> = {};
  for (const k of Object.keys(metrics1))
    if (k.startsWith('payout_broadcasts_total{') && k.includes(`network="${o.network}"`)) {
      const outcome = /outcome="([^"]*)"/.exec(k)?.[1] ?? k;
      broadcasts[outcome] = (broadcasts[outcome] ?? 0) + metrics1[k] - (metrics0[k] ?? 0);
    }
  return {
    count: o.count,
    created: ids.length,
    non201,
    settled: rows.filter((r) => r.state === 'settled').length,
    failed: rows.filter((r) => r.state === 'failed').length,
    timedOut,
    createPerSecond: round(ids.length / ((createdAll - t0) / 1000), 1),
    minedPerSecond: round(minedTimes.length / ((Math.max(...minedTimes) - firstCreated) / 1000), 1),
    settledPerSecond: round(settledTimes.length / ((lastSettled - firstCreated) / 1000), 1),
    settledPerSecondSteady:
      settledTimes.length > 1 && lastSettled > firstSettled
        ? round((settledTimes.length - 1) / ((lastSettled - firstSettled) / 1000), 1)
        : null,
    times: {
      toSigned: spans((r) => r.signed_ms ?? undefined),
      toSent: spans(sentAt),
      toMined: spans(minedAt),
      toFinal: spans(settledAt),
      toSettledInFeed: spans((r) => eventOf.get(`${r.id}:${r.state}`)?.feed_ms),
      sentToMined: spans(minedAt, sentAt),
    },
    gasUsedMean: gas.length ? round(mean(gas.map((r) => Number(r.gas_used))), 0) : null,
    effectiveGasPriceGwei: gas.length ? round(mean(gas.map((r) => Number(r.effective_gas_price_wei))) / 1e9, 4) : null,
    gasCostGwei: gas.length ? round(mean(gas.map((r) => Number(r.gas_cost_wei))) / 1e9, 1) : null,
    replaced: rows.filter((r) => r.versions > 1).length,
    chain: watcher.between(firstCreated, lastSettled),
    cpuMsPerPayout: cpuPer(cpu0, cpu1, Math.max(1, finalRows.length)),
    rounds: {
      runs,
      meanMs: runs > 0 ? round((d('periodic_job_duration_seconds_sum', 'job="payouts"') / runs) * 1000, 1) : null,
      broadcasts,
    },
    dbRoundTripMs: distribution(roundTrips),
    commitsPerPayout: finalRows.length ? round((commits1 - commits0) / finalRows.length, 1) : null,
    rpc: tap ? perPayout(tap.stats(), finalRows.length) : null,
    pg: pgTap ? perPayout(pgTap.stats(), finalRows.length) : null,
    timeline,
    window: { startUs, endUs },
  };
}

// ------------------------------------------------------------------------------------ the profile
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: an npm package, the app's own code, Node's internals, or V8's pseudo-frames. */
function origin(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const own = /dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  return own ? own[1] : url;
}

/**
 * The samples of the withdrawals service's CPU profile within the measured window (V8 stamps them on the
 * monotonic clock this process reads too): busy share, self time by origin and by function.
 */
function summariseProfile(file: string, window: { startUs: number; endUs: number }) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < window.startUs || t > window.endUs) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
    total += dt;
  }
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const { functionName, url, lineNumber } = frame;
    const o = origin(url, functionName);
    byOrigin.set(o, (byOrigin.get(o) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const idle = (byOrigin.get('(idle)') ?? 0) + (byOrigin.get('(program)') ?? 0);
  const busy = total - (byOrigin.get('(idle)') ?? 0);
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: round(us / 1000, 0), shareOfBusy: round(us / Math.max(1, busy), 3) }));
  return {
    file,
    windowMs: round(total / 1000, 0),
    busyMs: round(busy / 1000, 0),
    idleOrProgramMs: round(idle / 1000, 0),
    byOrigin: top(byOrigin, 12),
    byFunction: top(byFunction, 20),
  };
}

// ------------------------------------------------------------------------------------ lifecycle
let stack: RunningStack | undefined;
let kafkaStarted = false;
let chainsStarted = false;
let tap: RpcTap | undefined;
let pgTap: PgTap | undefined;
let counterparties: BenchCounterparties | undefined;
let interrupted = false;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    if (stack) await stack.stop(15_000).catch((e: unknown) => console.error(`bench: stopping the apps failed: ${(e as Error).message}`));
    await tap?.stop().catch(() => undefined);
    await pgTap?.stop().catch(() => undefined);
    await counterparties?.stop();
    if (kafkaStarted)
      try {
        kafka('stop', KAFKA_PORT);
      } catch (e) {
        console.error(`bench: stopping the broker failed: ${(e as Error).message}`);
      }
    if (chainsStarted)
      await stopLocalChains(CHAIN_PORTS, CHAIN_DATA_DIR).catch((e: unknown) =>
        console.error(`bench: stopping the chains failed: ${(e as Error).message}`),
      );
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping...`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** The six apps, held from the first spawn (Ctrl-C stops them); the withdrawals service profiled with --cpu-prof. */
async function startStack(o: StackOptions, cpuProf: boolean, pgPort: number | undefined): Promise<RunningStack> {
  const processes = new Map<AppName, ReturnType<typeof startApp>>();
  stack = new RunningStack(processes, `http://127.0.0.1:${o.gatewayPort}`, `http://127.0.0.1:${healthPortOf('gateway', o.healthPortBase)}`);
  for (const app of APPS) {
    if (app !== 'withdrawals') {
      processes.set(app, startApp(app, o));
      continue;
    }
    const env: Record<string, string> = { ...o.env };
    if (cpuProf) env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}`;
    if (pgPort !== undefined) {
      const url = new URL(o.databaseUrl);
      url.host = `127.0.0.1:${pgPort}`;
      env.DATABASE_URL = url.toString();
    }
    processes.set(app, startApp(app, { ...o, env }));
  }
  await waitUntilReady(stack, 120_000);
  return stack;
}

// ------------------------------------------------------------------------------------ main
async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  mkdirSync(LOG_DIR, { recursive: true });
  const adminKey = `adm_bench_${randomBytes(18).toString('base64url')}`;
  const environment = {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadavgAtStart: loadavg().map((n) => round(n)),
    startedAt: new Date().toISOString(),
  };
  const timings: LocalChainTimings = { confirmations: o.confirmations, pollMs: o.pollMs, replaceAfterMs: 30_000 };
  console.log(
    `payouts bench: node ${environment.node}, ${environment.cpus} cpus, load ${environment.loadavgAtStart.join(' ')}; ${o.count} transfers on ${o.network}, ` +
      `block time ${o.blockTimeMs} ms, final after ${o.confirmations} blocks, CHAIN_POLL_MS ${o.pollMs}, CHAIN_BATCH ${o.batch ?? '200 (default)'}, ` +
      `${o.rate > 0 ? `${o.rate} a second` : `all at once (${o.concurrency} clients)`}; apps from ${o.appRoot ?? root}`,
  );
  if (o.build) buildWorkspace(root);
  if (o.cpuProf) rmSync(PROFILE_DIR, { recursive: true, force: true });
  for (const app of APPS) rmSync(join(LOG_DIR, `${app}.log`), { force: true });

  const results: Record<string, unknown> = { environment, options: o };
  const db = new Client({ connectionString: DATABASE_URL, application_name: 'bench-probe' });
  let dbConnected = false;
  try {
    try {
      kafka('stop', KAFKA_PORT);
    } catch {
      /* not running */
    }
    rmSync(KAFKA_DATA_DIR, { recursive: true, force: true });
    kafkaStarted = true;
    kafka('start', KAFKA_PORT);
    const hotWallet = ensureHotWalletKey(join(OUT_DIR, 'payouts-hot-wallet.key'));
    chainsStarted = true;
    const chains = await ensureLocalChains({
      ports: CHAIN_PORTS,
      hotWallet: hotWallet.address,
      blockTimeMs: o.blockTimeMs,
      fresh: true,
      dataDir: CHAIN_DATA_DIR,
    });
    const chain = chains[o.network];
    // The floor's wallet: a key of this run only, funded by the token's owner as the hot wallet was.
    const floorKey = generatePrivateKey();
    await fundFromOwner(
      o.network,
      CHAIN_PORTS[o.network],
      privateKeyToAccount(floorKey).address,
      BigInt(o.count) * AMOUNT_MICROS * 2n, // two passes
      parseEther('100'),
      CHAIN_DATA_DIR,
    );
    // --trace-rpc: the service reaches the measured network's node through a counting proxy.
    if (o.traceRpc) {
      tap = new RpcTap(chain.rpcUrl);
      await tap.start();
    }
    const serviceChains = tap ? { ...chains, [o.network]: { ...chain, rpcUrl: tap.url } } : chains;
    await recreateDatabase(DATABASE_URL);
    if (o.appRoot)
      execFileSync(join(root, 'node_modules/.bin/tsx'), [join(o.appRoot, 'scripts/db/migrate.ts')], {
        stdio: 'inherit',
        cwd: o.appRoot,
        env: { ...process.env, DATABASE_URL },
      });
    else migrate(DATABASE_URL);
    // pix-keys' DICT test server and the owner notifier's sinks, as npm start and npm test run them.
    counterparties = await startBenchCounterparties('payouts');
    const stackOptions: StackOptions = {
      ...(o.appRoot ? { appRoot: o.appRoot } : {}),
      kafkaPort: KAFKA_PORT,
      databaseUrl: DATABASE_URL,
      gatewayPort: GATEWAY_PORT,
      healthPortBase: HEALTH_PORT_BASE,
      logDir: LOG_DIR,
      env: {
        SANDBOX: 'true',
        ADMIN_API_KEY: adminKey,
        LOG_LEVEL: 'warn',
        ...chainAppEnv(serviceChains, hotWallet.keyFile, timings),
        ...(o.batch !== null ? { CHAIN_BATCH: String(o.batch) } : {}),
        ...counterparties.env,
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    };
    if (o.tracePg) {
      const url = new URL(DATABASE_URL);
      pgTap = new PgTap(url.hostname, Number(url.port || 5432));
      await pgTap.start();
    }
    const s = await startStack(stackOptions, o.cpuProf, pgTap?.port);
    await db.connect();
    dbConnected = true;

    const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
    const watcher = new BlockWatcher(client);
    await watcher.start();
    const nodePid = () => pidOf(join(CHAIN_DATA_DIR, `node-${CHAIN_PORTS[o.network]}`, 'node.pid'));
    const cpu: CpuSources = {
      procs: () =>
        new Map<string, number | undefined>([
          ...[...s.processes].map(([app, p]) => [app, p.pid] as [string, number | undefined]),
          ['chain node', nodePid()],
          ['kafka', pidOf(join(KAFKA_DATA_DIR, 'kafka.pid'))],
        ]),
      db,
    };

    console.log('\nfloor: a bare script signs and pushes the transfers from its own wallet...');
    const floorBefore = await runFloor(o, chain, client, watcher, floorKey, cpu);
    console.log(`  ${floorBefore.minedPerSecond} transfers/s mined, ${floorBefore.submitPerSecond}/s pushed`);

    console.log('service: withdrawals through the partner API, paid by the payout rounds...');
    const metricsUrl = `http://127.0.0.1:${healthPortOf('withdrawals', HEALTH_PORT_BASE)}/metrics`;
    const service = await runService(o, s.gatewayUrl, adminKey, db, watcher, cpu, metricsUrl, tap, pgTap);
    results.service = service;

    // The floor again after the service (floor, service, floor): the machine's drift falls on both sides.
    console.log('floor again, after the service...');
    const floorAfter = await runFloor(o, chain, client, watcher, floorKey, cpu);
    console.log(`  ${floorAfter.minedPerSecond} transfers/s mined, ${floorAfter.submitPerSecond}/s pushed`);
    const floor = meanOf(floorBefore, floorAfter);
    results.floor = { before: floorBefore, after: floorAfter, mean: floor };
    await watcher.stop();
    report(o, floor, service);

    if (o.cpuProf) {
      await stack?.stop(30_000);
      stack = undefined;
      const files = existsSync(PROFILE_DIR) ? readdirSync(PROFILE_DIR).filter((f) => f.endsWith('.cpuprofile')) : [];
      const newest = files.map((f) => join(PROFILE_DIR, f)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
      if (!newest) console.log('\nPROFILE  no .cpuprofile written (did the withdrawals service exit cleanly?)');
      else {
        const p = summariseProfile(newest, service.window);
        results.profile = p;
        console.log(`\nPROFILE  withdrawals service over the service window: ${p.windowMs} ms sampled, busy ${p.busyMs} ms (${newest})`);
        console.log(
          table(
            ['self time by origin', 'ms', 'share of busy'],
            p.byOrigin.map((r) => [r.name, String(r.ms), `${(r.shareOfBusy * 100).toFixed(1)} %`]),
          ),
        );
        console.log(
          table(
            ['self time by function', 'ms', 'share of busy'],
            p.byFunction.map((r) => [r.name.slice(0, 90), String(r.ms), `${(r.shareOfBusy * 100).toFixed(1)} %`]),
          ),
        );
      }
    }
  } finally {
    const file = join(OUT_DIR, 'payouts.json');
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nresults: ${file}; app logs: ${LOG_DIR}`);
    if (dbConnected) await db.end().catch(() => undefined);
    await cleanup();
  }
}

/** Two passes as one: every number the mean of the two (distributions field by field), anything else the first's. */
function meanOf<T>(a: T, b: T): T {
  if (typeof a === 'number' && typeof b === 'number') return round((a + b) / 2, 2) as T;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a))
    return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, meanOf(v, (b as Record<string, unknown>)[k])])) as T;
  return a;
}

function report(o: Options, floor: FloorResult, service: ServiceResult): void {
  const f = floor.times;
  const t = service.times;
  const row = (label: string, s: number | null | undefined, fl: number | null | undefined) => [label, fmt(s), fmt(fl), fmt(ratio(s, fl))];
  console.log(
    `\nPAYOUTS  ${o.count} on ${o.network}; block time ${o.blockTimeMs} ms (seen: floor ${fmt(floor.chain.meanIntervalMs)} ms, service ${fmt(service.chain.meanIntervalMs)} ms between blocks); ` +
      `final after ${o.confirmations} blocks; CHAIN_POLL_MS ${o.pollMs}, CHAIN_BATCH ${o.batch ?? 200}; ${o.rate > 0 ? `${o.rate}/s` : 'all at once'}`,
  );
  console.log(
    `  service: ${service.created} created (${service.createPerSecond}/s), ${service.settled} settled, ${service.failed} failed${service.timedOut ? ', TIMED OUT' : ''}; ` +
      `non-201 ${JSON.stringify(service.non201)}; replaced ${service.replaced}; payout rounds ${service.rounds.runs} (mean ${fmt(service.rounds.meanMs)} ms), broadcasts ${JSON.stringify(service.rounds.broadcasts)}`,
  );
  console.log(
    table(
      ['', 'service', 'floor (2 passes)', 'service/floor'],
      [
        row('mined per second (count / first asked → last mined)', service.minedPerSecond, floor.minedPerSecond),
        row('settled per second (service) | final per second (floor)', service.settledPerSecond, floor.finalPerSecond),
        row('settled per second, first → last settled', service.settledPerSecondSteady, null),
        row('created → signed p50 ms', t.toSigned?.p50, null),
        row('created → sent p50 ms | asked → pushed (floor)', t.toSent?.p50, f.toSent?.p50),
        row('created → sent p99 ms | asked → pushed (floor)', t.toSent?.p99, f.toSent?.p99),
        row('created → mined p50 ms (block seen)', t.toMined?.p50, f.toMined?.p50),
        row('created → mined p99 ms (block seen)', t.toMined?.p99, f.toMined?.p99),
        row('created → settled p50 ms | asked → final (floor)', t.toFinal?.p50, f.toFinal?.p50),
        row('created → settled p99 ms | asked → final (floor)', t.toFinal?.p99, f.toFinal?.p99),
        row('created → settled in the feed p99 ms', t.toSettledInFeed?.p99, f.toFinal?.p99),
        row('sent → mined p50 ms | pushed → mined (floor)', t.sentToMined?.p50, f.sentToMined?.p50),
        row('gas used per payout', service.gasUsedMean, floor.gasUsedMean),
        row('effective gas price, gwei', service.effectiveGasPriceGwei, floor.effectiveGasPriceGwei),
        row('gas cost per payout, gwei', service.gasCostGwei, floor.gasCostGwei),
        row('transactions per busy block (mean)', service.chain.meanTransactionsPerBusyBlock, floor.chain.meanTransactionsPerBusyBlock),
        row('largest block, share of its gas limit', service.chain.maxGasShare, floor.chain.maxGasShare),
      ],
    ),
  );
  if (service.rpc) {
    const rows = Object.entries(service.rpc).sort((a, b) => b[1].totalS - a[1].totalS);
    const total = rows.reduce((n, [, r]) => n + r.totalS, 0);
    console.log(
      `\nJSON-RPC of the service to the ${o.network} node over the window (--trace-rpc): ${rows.reduce((n, [, r]) => n + r.calls, 0)} calls, ` +
        `${fmt(total)} s waited in all (${fmt(service.rounds.runs ? (total * 1000) / service.rounds.runs : null)} ms per round)`,
    );
    console.log(
      table(
        ['method', 'calls', 'per payout', 'p50 ms', 'p99 ms', 'total s'],
        rows.map(([m, r]) => [m, String(r.calls), fmt(r.perPayout), fmt(r.p50Ms), fmt(r.p99Ms), fmt(r.totalS)]),
      ),
    );
  }
  if (service.pg) {
    const rows = Object.entries(service.pg).sort((a, b) => b[1].totalS - a[1].totalS);
    const total = rows.reduce((n, [, r]) => n + r.totalS, 0);
    console.log(
      `\nPostgreSQL statements of the withdrawals service over the window (--trace-pg; every connection: creation, outbox relay, payout rounds): ` +
        `${rows.reduce((n, [, r]) => n + r.calls, 0)} statements, ${fmt(total)} s waited in all`,
    );
    console.log(
      table(
        ['statement', 'calls', 'per payout', 'p50 ms', 'p99 ms', 'total s'],
        rows.slice(0, 20).map(([m, r]) => [m, String(r.calls), fmt(r.perPayout), fmt(r.p50Ms), fmt(r.p99Ms), fmt(r.totalS)]),
      ),
    );
  }
  console.log(
    `\nPostgreSQL: commits per payout (every service, the withdrawal's creation included) ${fmt(service.commitsPerPayout)}; ` +
      `SELECT 1 round trip from the bench during the window p50 ${fmt(service.dbRoundTripMs?.p50)} ms, p99 ${fmt(service.dbRoundTripMs?.p99)} ms`,
  );
  console.log(
    `payout rounds: ${service.rounds.runs}, mean ${fmt(service.rounds.meanMs)} ms each (+ CHAIN_POLL_MS ${o.pollMs} between them): ` +
      `${fmt(service.rounds.meanMs !== null ? (service.rounds.meanMs * service.rounds.runs) / Math.max(1, service.settled + service.failed) : null)} ms of rounds per payout (all rounds' time over the payouts finished)`,
  );
  const names = [...new Set([...Object.keys(service.cpuMsPerPayout), ...Object.keys(floor.cpuMsPerTransfer)])];
  console.log('\nCPU ms per payout (service window) and per transfer (floor window)');
  console.log(
    table(
      ['process', 'service', 'floor'],
      names.map((n) => [n, fmt(service.cpuMsPerPayout[n]), fmt(floor.cpuMsPerTransfer[n])]),
    ),
  );
  const step = Math.max(1, Math.ceil(service.timeline.length / 20));
  console.log('\nTIMELINE of the service window (withdrawals in each stage)');
  console.log(
    table(
      ['s', 'unsigned', 'signed', 'sent', 'mined', 'settled'],
      service.timeline
        .filter((_, i) => i % step === 0 || i === service.timeline.length - 1)
        .map((p) => [fmt(p.atS), String(p.unsigned), String(p.signed), String(p.sent), String(p.mined), String(p.settled)]),
    ),
  );
}

main().then(
  () => process.exit(interrupted ? 130 : 0),
  async (error: unknown) => {
    console.error(`payouts bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    await cleanup();
    process.exit(1);
  },
);
