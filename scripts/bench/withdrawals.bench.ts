/**
 * `npm run bench`: USDT withdrawals through the whole stack (HTTP → gateway → Kafka request-reply →
 * withdrawals → outbox → Kafka → events → feed), held against an in-process baseline (the same gateway
 * and the same withdrawals handler in one process, apps/bench-baseline) in the same launch, on the same
 * database and broker. Not a test: it prints numbers. See README.md next to this file.
 *
 *   npm run bench
 *   npm run bench -- --no-build --requests 300 --concurrency 1,32 --open-seconds 15      (quick)
 *   npm run bench -- --auth-flood [--no-build]     an honest partner's p99 alone and in a flood of made-up keys (auth-flood.bench.ts)
 *   npm run bench -- --lists [--no-build]          the partner lists at a million rows of one partner (lists.bench.ts)
 *
 * Options (flag, or environment variable):
 *   --requests N        BENCH_REQUESTS      POSTs per closed-loop pass and for the hot run (default 2000)
 *   --concurrency C,..  BENCH_CONCURRENCY   closed-loop levels (default 1,8,32,64)
 *   --warmup N          BENCH_WARMUP        unmeasured POSTs on each stack first (default 1000 at c=16, then half as many at the lowest measured concurrency: JIT and broker warm-up; a cold stack's first pass is slower)
 *   --partners P        BENCH_PARTNERS      partners (default 4)
 *   --users U           BENCH_USERS         minimum users per partner (default 8)
 *   --poll-ms MS        BENCH_POLL_MS       period of the database checks that wait for a run to drain (default 250)
 *   --open-seconds S    BENCH_OPEN_SECONDS  length of the open-loop run (default 60)
 *   --open-rate R       BENCH_OPEN_RATE     open-loop rate in req/s (default: --open-share of the peak)
 *   --open-share F,..   BENCH_OPEN_SHARE    the open runs' rates as shares of the peak: of the sustained rate when the
 *                                           sustained run found one, else of the closed loop's (default 0.5; 0.5,0.8: two runs)
 *   --feed-rate R       BENCH_FEED_RATE     the feed-load run's reads: R a second on a schedule (default: 8 connections each
 *                                           reading again as soon as answered)
 *   --open-warmup S     BENCH_OPEN_WARMUP   unmeasured seconds of the same open loop before the measured one (default 30: the
 *                                           broker's JIT at steady state; a fresh broker costs half again as much CPU per request)
 *   --sustained-seconds S BENCH_SUSTAINED_SECONDS  length of each open loop of the sustained run (default 20)
 *   --runs LIST         BENCH_RUNS          closed,open,hot[,sustained][,feed][,feed-load][,scale] (default closed,open,hot);
 *                                           sustained: the highest open-loop rate the whole stack keeps up with, found by
 *                                           halving between 0 and the closed-loop peak (the peak of a burst); feed-load: the feed
 *                                           run while an open loop of withdrawals runs (--open-rate, default 50 % of the peak);
 *                                           scale: the closed loop at the highest --concurrency on one instance of every app, then
 *                                           on two (a second set started beside the first), passes one-two-two-one
 *   --feed                                  adds the feed run (runFeedBench of scripts/bench/feed.bench.ts) to --runs
 *   --no-build          BENCH_NO_BUILD=1    use the existing dist/ instead of building first
 *
 * It starts a stack of its own (broker on 29092, database partner_bench, gateway on 23000, health ports
 * from 23101, baseline on 23001, logs in .cache/bench/logs) and stops it at the end, also on Ctrl-C.
 * Results: .cache/bench/results.json.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiClient, newCpf } from '../../libs/testing/src';
import { appNodeFlags, APPS, AppName, healthPortOf, repoRoot } from '../lib/services';
import {
  appEnv,
  kafka,
  migrate,
  recreateDatabase,
  RunningStack,
  startApps,
  StackOptions,
  startApp,
  stopProcess,
  waitUntilReady,
} from '../stack/stack';
import { closedLoop, distribution, Distribution, LoadClient, LoadResult, openLoop, OpenLoopResult, Pick, sleep, USDT } from './bench-load';
import { FeedBenchOptions, FeedBenchResult, runFeedBench } from './feed.bench';
import {
  BacklogSampler,
  BenchDatabase,
  cpuMs,
  gcWindow,
  GcWindow,
  scrapeApp,
  heapSplitMb,
  HeapSplit,
  LagResult,
  MemoryUnderLoad,
  PgCounters,
  pssMb,
  RssSampler,
  rssMb,
} from './bench-probes';
import { runOnRequiredNode } from '../lib/node-runtime';
import { chainAppEnv, TEST_BLOCK_TIME_MS, TEST_CHAIN_TIMINGS } from '../chain/chain-env';
import { ChainPorts, ensureHotWalletKey, ensureLocalChains, stopLocalChains } from '../chain/local-chains';
import { BenchCounterparties, startBenchCounterparties } from './bench-counterparties';
import { GroupState, serviceGroups } from '../stack/consumer-groups';
import { histogram, LATENCY_BUCKETS_MS, TailProbe, TailSources } from './tail-sources';
import { buildWorkspace } from '../lib/build-stamp';

runOnRequiredNode();

// ------------------------------------------------------------------------------------ settings
const root = repoRoot();
const KAFKA_PORT = 29092;
const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner_bench';
const GATEWAY_PORT = 23000;
const BASELINE_PORT = 23001;
const HEALTH_PORT_BASE = 23100;
const OUT_DIR = join(root, '.cache', 'bench');
const LOG_DIR = join(OUT_DIR, 'logs');
const KAFKA_DATA_DIR = join(root, '.cache', 'kafka', `data-${KAFKA_PORT}`);
/**
 * Local chains of the bench's own (fresh every run; BENCH_CHAIN_PORT_ETH / _MATIC), with npm test's timings:
 * a block every 250 ms, final after 2, a payout round every 100 ms (scripts/chain/chain-env.ts).
 */
const CHAIN_PORTS: ChainPorts = {
  ETH: Number(process.env.BENCH_CHAIN_PORT_ETH ?? 23545),
  MATIC: Number(process.env.BENCH_CHAIN_PORT_MATIC ?? 23546),
};
/**
 * When a withdrawal's chain move counts as due in the backlog samples: `created` (not yet broadcast) for
 * longer than a round and its pause could take, or `sent` for longer than its block, its confirmations and
 * a round (the payout rounds pace themselves: a second of slack each).
 */
const CHAIN = {
  sendDelayMs: 2 * TEST_CHAIN_TIMINGS.pollMs + 1000,
  settleDelayMs: (TEST_CHAIN_TIMINGS.confirmations + 1) * TEST_BLOCK_TIME_MS + 2 * TEST_CHAIN_TIMINGS.pollMs + 1000,
};
/** Plenty for every withdrawal a user can get in a run (the hot run included): balance is never what is measured. */
const USER_BALANCE_MICROS = 1_000_000 * USDT;
/** After a run's last answer: how long to wait until each of its withdrawals is final in the feed. */
const DRAIN_TIMEOUT_MS = 180_000;
const RUN_NAMES = ['closed', 'sustained', 'open', 'hot', 'feed', 'feed-load', 'scale'] as const;
type RunName = (typeof RUN_NAMES)[number];
const HOT_CONCURRENCY = 32;
/** Issue #27: the six apps together, RSS summed, under a withdrawal load. */
const MEMORY_GOAL_MB = 600;

interface Options {
  requests: number;
  concurrency: number[];
  warmup: number;
  partners: number;
  users: number;
  pollMs: number;
  openSeconds: number;
  openRate: number | null;
  openShares: number[];
  openWarmup: number;
  feedRate: number | null;
  sustainedSeconds: number;
  runs: RunName[];
  build: boolean;
}

function parseOptions(argv: string[]): Options {
  const flags = new Map<string, string>();
  const booleans = ['no-build', 'help', 'feed'];
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
      'usage: npm run bench -- [--requests N] [--concurrency C[,C...]] [--warmup N] [--partners P] [--users U] [--poll-ms MS]\n' +
        '                        [--open-seconds S] [--open-rate R | --open-share F[,F...]] [--open-warmup S] [--feed-rate R] [--sustained-seconds S]\n' +
        '                        [--runs closed,sustained,open,hot,feed,feed-load,scale] [--feed] [--no-build]',
    );
    process.exit(0);
  }
  const known = [
    'requests',
    'concurrency',
    'warmup',
    'partners',
    'users',
    'poll-ms',
    'open-seconds',
    'open-rate',
    'open-share',
    'open-warmup',
    'feed-rate',
    'sustained-seconds',
    'runs',
    ...booleans,
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown option --${name}`);
  const get = (flag: string, env: string, fallback: string) => flags.get(flag) ?? process.env[env] ?? fallback;
  const num = (flag: string, env: string, fallback: number, min: number, integer = true) => {
    const raw = get(flag, env, String(fallback));
    const n = Number(raw);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min)
      throw new Error(`--${flag} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${raw}`);
    return n;
  };
  const list = (flag: string, env: string, fallback: string) =>
    get(flag, env, fallback)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const concurrency = list('concurrency', 'BENCH_CONCURRENCY', '1,8,32,64').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--concurrency takes positive integers, got ${s}`);
    return n;
  });
  if (concurrency.length === 0) throw new Error('--concurrency needs at least one level');
  const runs = list('runs', 'BENCH_RUNS', 'closed,open,hot').map((s) => {
    if (!(RUN_NAMES as readonly string[]).includes(s)) throw new Error(`--runs takes ${RUN_NAMES.join(',')}, got ${s}`);
    return s as RunName;
  });
  if (flags.has('feed') && !runs.includes('feed')) runs.push('feed');
  const openRate = get('open-rate', 'BENCH_OPEN_RATE', '');
  const openShares = list('open-share', 'BENCH_OPEN_SHARE', '0.5').map((x) => {
    const share = Number(x);
    if (!(share > 0 && share <= 1)) throw new Error(`--open-share takes shares in (0, 1], got ${x}`);
    return share;
  });
  if (openShares.length === 0) throw new Error('--open-share needs at least one share');
  const feedRate = get('feed-rate', 'BENCH_FEED_RATE', '');
  return {
    requests: num('requests', 'BENCH_REQUESTS', 2000, 1),
    concurrency,
    warmup: num('warmup', 'BENCH_WARMUP', 1000, 0),
    partners: num('partners', 'BENCH_PARTNERS', 4, 1),
    users: num('users', 'BENCH_USERS', 8, 1),
    pollMs: num('poll-ms', 'BENCH_POLL_MS', 250, 10),
    openSeconds: num('open-seconds', 'BENCH_OPEN_SECONDS', 60, 1),
    openRate: openRate === '' ? null : num('open-rate', 'BENCH_OPEN_RATE', 0, 0.1, false),
    openShares,
    openWarmup: num('open-warmup', 'BENCH_OPEN_WARMUP', 30, 0),
    feedRate: feedRate === '' ? null : num('feed-rate', 'BENCH_FEED_RATE', 0, 0.1, false),
    sustainedSeconds: num('sustained-seconds', 'BENCH_SUSTAINED_SECONDS', 20, 5),
    runs,
    build: !(flags.has('no-build') || process.env.BENCH_NO_BUILD === '1'),
  };
}

// ------------------------------------------------------------------------------------- helpers
const fmt = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n)
    ? '-'
    : Math.abs(n) >= 100
      ? n.toFixed(0)
      : Math.abs(n) >= 10
        ? n.toFixed(1)
        : n.toFixed(2);
const secs = (n: number) => `${(n / 1000).toFixed(1)} s`;
const table = (head: string[], rows: string[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)].map((l) => `  ${l}`).join('\n');
};
const non2xx = (counts: Record<string, number>) => Object.entries(counts).reduce((n, [k, v]) => (k.startsWith('2') ? n : n + v), 0);
const count5xx = (counts: Record<string, number>) =>
  Object.entries(counts).reduce((n, [k, v]) => (k.startsWith('5') || k.startsWith('error') ? n + v : n), 0);

function brokerPid(): number | undefined {
  try {
    const pid = Number(readFileSync(join(KAFKA_DATA_DIR, 'kafka.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------ stack lifecycle
type ProcName = AppName | 'baseline';
let stack: RunningStack | undefined;
let baseline: ChildProcess | undefined;
/** The scale run's second instance of every app, while it runs. */
let second: RunningStack | undefined;
let kafkaStarted = false;
let chainsStarted = false;
let counterparties: BenchCounterparties | undefined;
let cleaning: Promise<void> | undefined;
let interrupted = false;
const stopped = () => interrupted;

/** Stops the apps, the baseline and the broker; safe to call twice (Ctrl-C during the finally block). */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    if (baseline) await stopProcess(baseline, 10_000);
    if (second)
      await second
        .stop(10_000)
        .catch((e: unknown) => console.error(`bench: stopping the second instances failed: ${(e as Error).message}`));
    if (stack) {
      process.stderr.write('bench: stopping the apps\n');
      await stack.stop(10_000).catch((e: unknown) => console.error(`bench: stopping the apps failed: ${(e as Error).message}`));
    }
    if (kafkaStarted) {
      process.stderr.write('bench: stopping the broker\n');
      try {
        kafka('stop', KAFKA_PORT);
      } catch (e) {
        console.error(`bench: stopping the broker failed: ${(e as Error).message}`);
      }
    }
    if (chainsStarted)
      await stopLocalChains(CHAIN_PORTS).catch((e: unknown) => console.error(`bench: stopping the chains failed: ${(e as Error).message}`));
    await counterparties?.stop();
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return; // a second Ctrl-C while stopping: keep stopping
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping the stack...`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** Like stack.ts startApps, but the bench holds the processes from the first spawn so Ctrl-C can stop them. */
async function startBenchApps(o: StackOptions): Promise<RunningStack> {
  const processes = new Map<AppName, ReturnType<typeof startApp>>();
  stack = new RunningStack(processes, `http://127.0.0.1:${o.gatewayPort}`, `http://127.0.0.1:${healthPortOf('gateway', o.healthPortBase)}`);
  for (const app of APPS) processes.set(app, startApp(app, o));
  await waitUntilReady(stack, 120_000);
  return stack;
}

/** The in-process baseline (apps/bench-baseline): the gateway's environment on its own port. */
async function startBaseline(o: StackOptions): Promise<void> {
  const child = spawn(process.execPath, [...appNodeFlags('withdrawals'), join(root, 'dist/apps/bench-baseline/src/main.js')], {
    cwd: root,
    env: { ...appEnv('gateway', o), PORT: String(BASELINE_PORT), HEALTH_PORT: '0', ADMIN_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  baseline = child;
  const log = createWriteStream(join(LOG_DIR, 'baseline.log'), { flags: 'a' });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  // Its /readyz would report the services it does not serve as down: /healthz is the one to wait for.
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`baseline exited with ${child.exitCode}; see ${join(LOG_DIR, 'baseline.log')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${BASELINE_PORT}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error('baseline not listening after 60 s');
}

function processes(): Map<ProcName, ChildProcess> {
  const all = new Map<ProcName, ChildProcess>(stack?.processes ?? []);
  if (baseline) all.set('baseline', baseline);
  return all;
}

/** The six apps' RSS while the full stack takes POSTs (every full-stack window of every run). */
const underLoad = new RssSampler(() => new Map([...(stack?.processes ?? [])].map(([app, p]) => [app, p.pid])));

function assertAlive(): void {
  for (const [name, p] of processes()) {
    if (p.exitCode !== null || p.signalCode !== null) {
      throw new Error(`${name} exited (${p.exitCode ?? p.signalCode}) during the bench; see ${LOG_DIR}`);
    }
  }
}

/** Where each Node process serves /metrics: the gateway on its admin port, the baseline on its HTTP port, services on their health port. */
function metricsUrl(name: ProcName): string {
  if (name === 'gateway') return `http://127.0.0.1:${healthPortOf('gateway', HEALTH_PORT_BASE)}/metrics`;
  if (name === 'baseline') return `http://127.0.0.1:${BASELINE_PORT}/metrics`;
  return `http://127.0.0.1:${healthPortOf(name, HEALTH_PORT_BASE)}/metrics`;
}

// ------------------------------------------------------------------------------------ phases
type CpuSnapshot = { procs: Record<string, number | null>; postgres: Map<number, number> };

async function cpuSnapshot(db: BenchDatabase): Promise<CpuSnapshot> {
  const procs: Record<string, number | null> = {};
  for (const [name, p] of processes()) procs[name] = cpuMs(p.pid);
  procs.kafka = cpuMs(brokerPid());
  const own = process.cpuUsage();
  procs.bench = (own.user + own.system) / 1000;
  const postgres = new Map<number, number>();
  for (const pid of await db.backendPids()) {
    const c = cpuMs(pid);
    if (c !== null) postgres.set(pid, c);
  }
  return { procs, postgres };
}

/** CPU ms used between two snapshots; a backend that appeared in between counts from its start. */
function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, a] of Object.entries(after.procs)) {
    const b = before.procs[key];
    if (a !== null && b !== null && b !== undefined) out[key] = Math.round(a - b);
  }
  let pg = 0;
  for (const [pid, a] of after.postgres) pg += a - (before.postgres.get(pid) ?? 0);
  out.postgres = Math.round(pg);
  return out;
}

const counterDelta = (a: PgCounters, b: PgCounters) => ({
  xactCommit: b.xactCommit - a.xactCommit,
  xactRollback: b.xactRollback - a.xactRollback,
  tupInserted: b.tupInserted - a.tupInserted,
  tupUpdated: b.tupUpdated - a.tupUpdated,
  tupDeleted: b.tupDeleted - a.tupDeleted,
  tupFetched: b.tupFetched - a.tupFetched,
  statements: a.statements === null || b.statements === null ? null : b.statements - a.statements,
});

interface PhaseCosts {
  /** CPU ms per request while the POSTs ran, per process (apps, baseline, kafka, postgres backends, bench). */
  cpuMsPerRequest: Record<string, number>;
  cpuMs: Record<string, number>;
  /** Event-loop lag p99 (ms) of each Node app over the load window. */
  eventLoopP99Ms: Record<string, number | null>;
  /** Garbage collection of each Node app over the load window. */
  gc: Record<string, GcWindow | null>;
  /** pg_stat_database deltas from the first POST until the run drained (the whole life of its withdrawals). */
  db: ReturnType<typeof counterDelta>;
  commitsPerRequest: number;
  statementsPerRequest: number | null;
}

interface PhaseResult {
  load: LoadResult | OpenLoopResult;
  lag: LagResult;
  /** From the last answer until every withdrawal was final in the feed; null when it timed out. */
  drainMs: number | null;
  unfinished: number;
  costs: PhaseCosts;
}

/**
 * One measured run: load, then drain, with CPU, event-loop, database and lag measures around it; with
 * `fullStack`, the six apps' RSS is sampled while the load runs.
 */
async function measure(
  db: BenchDatabase,
  load: () => Promise<LoadResult | OpenLoopResult>,
  pollMs: number,
  fullStack: boolean,
): Promise<PhaseResult> {
  assertAlive();
  const names = [...processes().keys()];
  // This scrape resets prom-client's event-loop histograms: the one after the load reads the window's alone.
  const before = new Map(await Promise.all(names.map(async (n) => [n, await scrapeApp(metricsUrl(n))] as const)));
  const counters0 = await db.counters();
  const cpu0 = await cpuSnapshot(db);
  const t0 = performance.now();
  if (fullStack) underLoad.start();
  const result = await load().finally(() => fullStack && underLoad.stop());
  const cpu1 = await cpuSnapshot(db);
  const seconds = (performance.now() - t0) / 1000;
  const after = await Promise.all(names.map(async (n) => [n, await scrapeApp(metricsUrl(n))] as const));
  const drainStart = performance.now();
  const unfinished = await db.waitFinished(result.ids, DRAIN_TIMEOUT_MS, pollMs, stopped);
  const drainMs = unfinished === 0 ? Math.round(performance.now() - drainStart) : null;
  const counters1 = await db.counters();
  const lag = await db.creationToFeedLag(result.ids);
  const cpu = cpuDelta(cpu0, cpu1);
  const perRequest: Record<string, number> = {};
  for (const [k, v] of Object.entries(cpu)) perRequest[k] = Math.round((v / Math.max(1, result.requests)) * 100) / 100;
  const dbDelta = counterDelta(counters0, counters1);
  return {
    load: result,
    lag,
    drainMs,
    unfinished,
    costs: {
      cpuMsPerRequest: perRequest,
      cpuMs: cpu,
      eventLoopP99Ms: Object.fromEntries(after.map(([n, a]) => [n, a.loopP99Ms])),
      gc: Object.fromEntries(after.map(([n, a]) => [n, gcWindow(before.get(n)?.gc, a.gc, seconds)])),
      db: dbDelta,
      commitsPerRequest: Math.round((dbDelta.xactCommit / Math.max(1, result.requests)) * 100) / 100,
      statementsPerRequest: dbDelta.statements === null ? null : Math.round((dbDelta.statements / Math.max(1, result.requests)) * 10) / 10,
    },
  };
}

// ------------------------------------------------------------------------------------ workload
interface BenchPartner {
  key: string;
  users: string[];
}

async function createPartners(admin: ApiClient, partners: number, usersPerPartner: number): Promise<BenchPartner[]> {
  return Promise.all(
    Array.from({ length: partners }, async (_, index) => {
      const res = await admin.post<{ api_key: string }>('/sandbox/v1/partners', { name: `bench #${index}` });
      if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      const api = new ApiClient(admin.baseUrl, { 'x-api-key': res.body.api_key });
      const users: string[] = [];
      for (let u = 0; u < usersPerPartner; u++) {
        const document = newCpf();
        const created = await api.post('/sandbox/v1/users', { document, usdt_micros: USER_BALANCE_MICROS });
        if (created.status !== 201) throw new Error(`user creation failed: ${created.status} ${JSON.stringify(created.body)}`);
        users.push(document);
      }
      return { key: res.body.api_key, users };
    }),
  );
}

/**
 * Request i goes to partner i mod P, user (i div P) mod U: the requests in flight hit different users
 * while P×U is well above the concurrency (U is raised to twice it), so no account lock is what is
 * measured (the hot run measures that).
 */
function spread(url: string, partners: BenchPartner[]): Pick {
  const clients = partners.map((p) => new LoadClient(url, p.key));
  return (i) => {
    const p = i % partners.length;
    const users = partners[p].users;
    return { api: clients[p], document: users[Math.floor(i / partners.length) % users.length] };
  };
}

// ------------------------------------------------------------------------------------ runs
type StackName = 'full' | 'baseline';
interface ClosedPass extends PhaseResult {
  stack: StackName;
  pass: number;
}
interface ClosedLevel {
  concurrency: number;
  passes: ClosedPass[];
  full: Aggregate;
  baseline: Aggregate;
  /** full − baseline, ms. */
  deltaP50Ms: number | null;
  deltaP99Ms: number | null;
  throughputRatio: number | null;
}
interface Aggregate {
  requests: number;
  throughput: number;
  latencyMs: Distribution | null;
  non2xx: number;
  lagMs: Distribution | null;
  cpuMsPerRequest: Record<string, number>;
  commitsPerRequest: number;
  tuplesWrittenPerRequest: number;
}

function aggregate(passes: ClosedPass[]): Aggregate {
  const requests = passes.reduce((n, p) => n + p.load.requests, 0);
  const duration = passes.reduce((n, p) => n + p.load.durationMs, 0);
  const cpu: Record<string, number> = {};
  for (const p of passes) for (const [k, v] of Object.entries(p.costs.cpuMs)) cpu[k] = (cpu[k] ?? 0) + v;
  const db = passes.reduce(
    (acc, p) => ({
      commits: acc.commits + p.costs.db.xactCommit,
      written: acc.written + p.costs.db.tupInserted + p.costs.db.tupUpdated + p.costs.db.tupDeleted,
    }),
    { commits: 0, written: 0 },
  );
  const lags = passes.flatMap((p) => (p.lag.lagMs ? [p.lag.lagMs] : []));
  return {
    requests,
    throughput: Math.round((requests / (duration / 1000)) * 10) / 10,
    latencyMs: distribution(passes.flatMap((p) => p.load.latencies)),
    non2xx: passes.reduce((n, p) => n + non2xx(p.load.statusCounts), 0),
    // Lag per pass is a distribution already; across passes the worst pass is what matters.
    lagMs: lags.length ? lags.reduce((a, b) => (b.p99 > a.p99 ? b : a)) : null,
    cpuMsPerRequest: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round((v / requests) * 100) / 100])),
    commitsPerRequest: Math.round((db.commits / requests) * 100) / 100,
    tuplesWrittenPerRequest: Math.round((db.written / requests) * 100) / 100,
  };
}

async function runClosed(db: BenchDatabase, urls: Record<StackName, string>, partners: BenchPartner[], o: Options): Promise<ClosedLevel[]> {
  const levels: ClosedLevel[] = [];
  const picks = { full: spread(urls.full, partners), baseline: spread(urls.baseline, partners) };
  for (const c of o.concurrency) {
    const passes: ClosedPass[] = [];
    // A-B-B-A: drift of the machine (other load, a growing database) falls on both stacks alike.
    const order: StackName[] = ['full', 'baseline', 'baseline', 'full'];
    for (const [k, stackName] of order.entries()) {
      if (interrupted) return levels;
      const r = await measure(db, () => closedLoop(o.requests, c, picks[stackName], stopped), o.pollMs, stackName === 'full');
      const pass = { ...r, stack: stackName, pass: k + 1 };
      passes.push(pass);
      const l = r.load.latencyMs;
      console.log(
        `  c=${c} pass ${k + 1} ${stackName.padEnd(8)} ${fmt(r.load.throughput).padStart(7)} req/s  p50 ${fmt(l?.p50)}  p99 ${fmt(l?.p99)} ms  non-2xx ${non2xx(r.load.statusCounts)}  lag p99 ${fmt(r.lag.lagMs?.p99)} ms  drained ${r.drainMs === null ? 'NO' : secs(r.drainMs)}`,
      );
    }
    const full = aggregate(passes.filter((p) => p.stack === 'full'));
    const base = aggregate(passes.filter((p) => p.stack === 'baseline'));
    const d = (f: (x: Distribution) => number) =>
      full.latencyMs && base.latencyMs ? Math.round((f(full.latencyMs) - f(base.latencyMs)) * 100) / 100 : null;
    levels.push({
      concurrency: c,
      passes,
      full,
      baseline: base,
      deltaP50Ms: d((x) => x.p50),
      deltaP99Ms: d((x) => x.p99),
      throughputRatio: base.throughput ? Math.round((full.throughput / base.throughput) * 1000) / 1000 : null,
    });
  }
  return levels;
}

interface OpenRun extends PhaseResult {
  backlog: ReturnType<BacklogSampler['summary']>;
  samples: BacklogSampler['samples'];
  tail: TailSources;
  /** Answers per latency bucket (LATENCY_BUCKETS_MS, then above the last). */
  histogram: number[];
}

async function runOpen(db: BenchDatabase, url: string, partners: BenchPartner[], rate: number, o: Options): Promise<OpenRun> {
  if (o.openWarmup > 0) {
    // The broker's JIT needs about a minute of load to reach its steady state: measured, the first 30 s of
    // open loop on a fresh broker cost it 2.0 ms of CPU per withdrawal, the next ones 1.3-1.4 (docs/benchmarks/2026-11-22-throughput-and-latency.md).
    console.log(`  warm-up: ${o.openWarmup} s of the same open loop, not measured`);
    await openLoop(rate, o.openWarmup, spread(url, partners), stopped);
  }
  const sampler = new BacklogSampler(db, 1000);
  const probe = new TailProbe(new Map([...(stack?.processes ?? [])].map(([app, p]) => [app, p.pid])), DATABASE_URL);
  let tail: TailSources | undefined;
  await sampler.start();
  const r = await measure(
    db,
    async () => {
      await probe.start();
      try {
        return await openLoop(rate, o.openSeconds, spread(url, partners), stopped);
      } finally {
        tail = await probe.stop();
        await sampler.stop(); // the backlog while requests arrive; the drain after is reported apart
      }
    },
    o.pollMs,
    true,
  );
  if (!tail) throw new Error('the tail probe did not stop');
  return { ...r, backlog: sampler.summary(), samples: sampler.samples, tail, histogram: histogram(r.load.latencies) };
}

/** One open loop of the sustained run, and whether the whole stack kept up with it. */
interface SustainedProbe {
  rate: number;
  keptUp: boolean;
  /** What decided: the first criterion missed, or the figures that all passed. */
  why: string;
  throughput: number;
  p99: number | null;
  outboxEnd: number;
  chainDueEnd: number;
  drainMs: number | null;
}

/**
 * Whether the whole stack kept up with an open loop: every POST answered 201, the answers came at the rate
 * they were sent (an open loop whose answers lag ends late), and neither background stage was left behind
 * by more than a second of arrivals when the loop ended: the outbox's unpublished rows, and the withdrawals
 * whose chain move (the payout rounds') was due but not made. A rate that leaves a backlog growing is not sustained,
 * however fast the POSTs were answered.
 */
function keptUp(r: OpenRun, rate: number): { keptUp: boolean; why: string } {
  const { requests, statusCounts, throughput, latencyMs } = r.load;
  const created = statusCounts['201'] ?? 0;
  const second = Math.max(10, Math.round(rate));
  const { outbox, chainDue } = r.backlog;
  if (created < requests) return { keptUp: false, why: `${requests - created} of ${requests} answers not 201` };
  if (throughput < rate * 0.95) return { keptUp: false, why: `answered ${fmt(throughput)} req/s of ${fmt(rate)} sent` };
  if (outbox.end > second) return { keptUp: false, why: `outbox backlog ${outbox.end} rows at the end (max ${outbox.max})` };
  if (chainDue.end > chainDue.start + second)
    return { keptUp: false, why: `chain backlog ${chainDue.end} due at the end (started at ${chainDue.start})` };
  return {
    keptUp: true,
    why: `POST p99 ${fmt(latencyMs?.p99)} ms, backlogs at the end: outbox ${outbox.end}, chain ${chainDue.end}`,
  };
}

/**
 * Issue #27 item 2, "which peak": the closed loop's peak is a burst figure (its passes stop before the chain's
 * moves and the projections they cause, which then run with nothing competing). This finds the highest rate of
 * an open loop the whole stack keeps up with (keptUp), by halving between 0 and `ceiling` (the closed-loop
 * peak) until the interval is within 5 % of it or `maxProbes` ran. Each probe starts from a drained stack.
 */
async function runSustained(
  db: BenchDatabase,
  url: string,
  partners: BenchPartner[],
  ceiling: number,
  o: Options,
  maxProbes = 6,
): Promise<{ rate: number | null; ceiling: number; probes: SustainedProbe[] }> {
  let low = 0;
  let high = ceiling;
  const probes: SustainedProbe[] = [];
  let rate = Math.round(ceiling / 2);
  while (probes.length < maxProbes && high - low > ceiling * 0.05 && !interrupted) {
    // The first probe is warmed up like the open run; the later ones follow a loaded stack within seconds.
    const r = await runOpen(db, url, partners, rate, {
      ...o,
      openSeconds: o.sustainedSeconds,
      openWarmup: probes.length === 0 ? o.openWarmup : 0,
    });
    const verdict = keptUp(r, rate);
    const probe: SustainedProbe = {
      rate,
      ...verdict,
      throughput: r.load.throughput,
      p99: r.load.latencyMs?.p99 ?? null,
      outboxEnd: r.backlog.outbox.end,
      chainDueEnd: r.backlog.chainDue.end,
      drainMs: r.drainMs,
    };
    probes.push(probe);
    console.log(`  ${fmt(rate)} req/s for ${o.sustainedSeconds} s: ${verdict.keptUp ? 'kept up' : 'fell behind'} (${verdict.why})`);
    if (verdict.keptUp) low = rate;
    else high = rate;
    rate = Math.round((low + high) / 2);
  }
  return { rate: low > 0 ? low : null, ceiling, probes };
}

interface ScalePass {
  instances: 1 | 2;
  throughput: number;
  p99: number | null;
  drainMs: number | null;
  /** CPU per withdrawal of all the apps (both sets when two), the broker and PostgreSQL. */
  cpuMsPerWithdrawal: number;
  /** With two: the second set's share of the twelve apps' CPU (about half when the work is spread). */
  secondSetShare: number | null;
}
interface ScaleResult {
  concurrency: number;
  passes: ScalePass[];
  one: number;
  two: number;
  ratio: number;
  members: Record<string, number>;
}

/**
 * Issue #27 item 6: two instances of every app on this machine against one, in one run. The same closed
 * loop (o.requests at the highest --concurrency) on one instance, then on two (a second set of the six apps
 * started beside the first on the same broker, database and consumer groups, requests alternating between
 * the two gateways), then on one again once the second set has stopped: one-two-two-one, so the machine's
 * drift falls on both alike. Each pass waits for its withdrawals to be final before the next, and each change of
 * configuration is followed by an unmeasured warm-up pass: new processes start cold, and a group that lost a
 * member pauses while it rebalances (the first pass after the second set stopped answered at p99 5.3 s while idle fetches were held 5 s).
 */
async function runScale(db: BenchDatabase, stackOptions: StackOptions, partners: BenchPartner[], o: Options): Promise<ScaleResult> {
  if (!stack) throw new Error('no stack');
  const first = stack;
  const c = Math.max(...o.concurrency);
  const passes: ScalePass[] = [];
  const appsCpu = (sets: RunningStack[]) =>
    sets.flatMap((set) => [...set.processes.values()].map((p) => cpuMs(p.pid) ?? 0)).reduce((n, ms) => n + ms, 0);
  const pickOver = (sets: RunningStack[]): Pick => {
    const clients = sets.map((set) => partners.map((p) => new LoadClient(set.gatewayUrl, p.key)));
    // Each partner's requests alternate between the gateways (by index, not by partner: both gateways serve every partner).
    return (i) => {
      const p = i % partners.length;
      const users = partners[p].users;
      return {
        api: clients[Math.floor(i / partners.length) % sets.length][p],
        document: users[Math.floor(i / partners.length) % users.length],
      };
    };
  };
  // New processes (JIT, pools, a fresh assignment of partitions) are slower at first: each configuration
  // takes an unmeasured --warmup pass at the same concurrency first, drained before the measured ones.
  const warm = async (sets: RunningStack[]) => {
    const r = await closedLoop(o.warmup, c, pickOver(sets), stopped);
    await db.waitFinished(r.ids, DRAIN_TIMEOUT_MS, o.pollMs, stopped);
  };
  const pass = async (sets: RunningStack[]) => {
    const extra0 = sets.length > 1 ? appsCpu(sets.slice(1)) : 0;
    const r = await measure(db, () => closedLoop(o.requests, c, pickOver(sets), stopped), o.pollMs, true);
    const extra = (sets.length > 1 ? appsCpu(sets.slice(1)) : 0) - extra0;
    const firstApps = APPS.reduce((n, k) => n + (r.costs.cpuMs[k] ?? 0), 0);
    const own = firstApps + (r.costs.cpuMs.kafka ?? 0) + (r.costs.cpuMs.postgres ?? 0);
    const result: ScalePass = {
      instances: sets.length as 1 | 2,
      throughput: r.load.throughput,
      p99: r.load.latencyMs?.p99 ?? null,
      drainMs: r.drainMs,
      cpuMsPerWithdrawal: Math.round(((own + extra) / Math.max(1, r.load.requests)) * 100) / 100,
      secondSetShare: sets.length > 1 ? Math.round((extra / Math.max(1, firstApps + extra)) * 100) / 100 : null,
    };
    console.log(
      `  ${result.instances} instance${result.instances === 1 ? ' ' : 's'}  ${fmt(result.throughput).padStart(7)} req/s  p99 ${fmt(result.p99)} ms  ` +
        `non-2xx ${non2xx(r.load.statusCounts)}  drained ${result.drainMs === null ? 'NO' : secs(result.drainMs)}  CPU ${fmt(result.cpuMsPerWithdrawal)} ms/withdrawal` +
        (result.secondSetShare === null ? '' : `  second set's share of the apps' CPU ${Math.round(result.secondSetShare * 100)} %`),
    );
    passes.push(result);
  };
  // Every service group at n members and Stable (its rebalance over): before that, a group's partitions are not consumed.
  const groupsAt = async (n: number) => {
    const deadline = Date.now() + 60_000;
    const settled = (groups: Record<string, GroupState>) => Object.values(groups).every((g) => g.members === n && g.state === 'Stable');
    let groups = await serviceGroups(KAFKA_PORT);
    while (!settled(groups) && Date.now() < deadline) {
      await sleep(500);
      groups = await serviceGroups(KAFKA_PORT);
    }
    if (!settled(groups)) throw new Error(`consumer groups not at ${n} member(s) and stable after 60 s: ${JSON.stringify(groups)}`);
    return Object.fromEntries(Object.entries(groups).map(([id, g]) => [id, g.members]));
  };
  await warm([first]);
  await pass([first]);
  second = await startApps(stackOptions, 1);
  // Partitions are shared once every service group has its two members.
  const members = await groupsAt(2);
  await warm([first, second]);
  await pass([first, second]);
  await pass([first, second]);
  await second.stop(30_000);
  second = undefined;
  await groupsAt(1);
  await warm([first]);
  await pass([first]);
  const mean = (n: 1 | 2) => {
    const of = passes.filter((p) => p.instances === n);
    return Math.round((of.reduce((t, p) => t + p.throughput, 0) / of.length) * 10) / 10;
  };
  const [one, two] = [mean(1), mean(2)];
  return { concurrency: c, passes, one, two, ratio: Math.round((two / one) * 1000) / 1000, members };
}

async function runHot(db: BenchDatabase, url: string, partner: BenchPartner, o: Options): Promise<PhaseResult> {
  const api = new LoadClient(url, partner.key);
  const document = partner.users[0];
  return measure(db, () => closedLoop(o.requests, HOT_CONCURRENCY, () => ({ api, document }), stopped), o.pollMs, true);
}

/**
 * The feed run (scripts/bench/feed.bench.ts, its own load shape: one partner with a long delivered
 * history, GET ?delivered=false through the full stack). It seeds its own partner in the bench database.
 */
async function runFeed(context: FeedBenchOptions): Promise<FeedBenchResult> {
  return runFeedBench(context);
}

// -------------------------------------------------------------------------------------- output
const CPU_COLUMNS = ['gateway', 'baseline', 'withdrawals', 'events', 'kafka', 'postgres', 'bench'];

function printClosed(levels: ClosedLevel[]): void {
  console.log('\nCLOSED LOOP  A = full stack (Kafka request-reply), B = in-process baseline; passes A-B-B-A, both passes merged');
  const rows: string[][] = [];
  for (const l of levels) {
    for (const [name, a] of [
      ['A full', l.full],
      ['B base', l.baseline],
    ] as const) {
      const d = a.latencyMs;
      rows.push([
        String(l.concurrency),
        name,
        fmt(a.throughput),
        fmt(d?.p50),
        fmt(d?.p90),
        fmt(d?.p99),
        fmt(d?.max),
        String(a.non2xx),
        fmt(a.lagMs?.p50),
        fmt(a.lagMs?.p99),
        fmt(a.lagMs?.max),
      ]);
    }
  }
  console.log(table(['conc', 'stack', 'req/s', 'p50', 'p90', 'p99', 'max', 'non-2xx', 'lag p50', 'lag p99', 'lag max'], rows));
  console.log('\n  full − baseline (ms) and throughput ratio per level');
  console.log(
    table(
      ['conc', 'Δp50', 'Δp99', 'full/base req/s'],
      levels.map((l) => [String(l.concurrency), fmt(l.deltaP50Ms), fmt(l.deltaP99Ms), fmt(l.throughputRatio)]),
    ),
  );
  console.log(
    '\n  CPU ms per request while the POSTs ran (postgres = backends of partner_bench); commits and tuples written per request (until drained)',
  );
  const cpuRows: string[][] = [];
  for (const l of levels) {
    for (const [name, a] of [
      ['A full', l.full],
      ['B base', l.baseline],
    ] as const) {
      const total = Object.entries(a.cpuMsPerRequest).reduce((n, [k, v]) => (k === 'bench' ? n : n + v), 0);
      cpuRows.push([
        String(l.concurrency),
        name,
        ...CPU_COLUMNS.map((k) => fmt(a.cpuMsPerRequest[k])),
        fmt(total),
        fmt(a.commitsPerRequest),
        fmt(a.tuplesWrittenPerRequest),
      ]);
    }
  }
  console.log(table(['conc', 'stack', ...CPU_COLUMNS, 'total-bench', 'commits', 'tup w'], cpuRows));
}

function peak(levels: ClosedLevel[], s: StackName): { throughput: number; concurrency: number } {
  const best = levels.reduce((a, b) => (b[s].throughput > a[s].throughput ? b : a));
  return { throughput: best[s].throughput, concurrency: best.concurrency };
}

function printPhase(title: string, r: PhaseResult, extra: string[] = []): void {
  const l = r.load.latencyMs;
  console.log(`\n${title}`);
  console.log(
    table(
      ['requests', 'req/s', 'p50', 'p90', 'p99', 'max', 'non-2xx', '5xx', 'lag p50', 'lag p99', 'lag max', 'drained'],
      [
        [
          String(r.load.requests),
          fmt(r.load.throughput),
          fmt(l?.p50),
          fmt(l?.p90),
          fmt(l?.p99),
          fmt(l?.max),
          String(non2xx(r.load.statusCounts)),
          String(count5xx(r.load.statusCounts)),
          fmt(r.lag.lagMs?.p50),
          fmt(r.lag.lagMs?.p99),
          fmt(r.lag.lagMs?.max),
          r.drainMs === null ? `NO (${r.unfinished} left)` : secs(r.drainMs),
        ],
      ],
    ),
  );
  for (const e of extra) console.log(`  ${e}`);
  const cpu = CPU_COLUMNS.filter((k) => r.costs.cpuMsPerRequest[k] !== undefined).map((k) => `${k} ${fmt(r.costs.cpuMsPerRequest[k])}`);
  console.log(`  CPU ms/req: ${cpu.join(', ')}; commits/req ${fmt(r.costs.commitsPerRequest)}`);
  if (r.load.non2xxSamples.length) for (const b of r.load.non2xxSamples.slice(0, 3)) console.log(`  non-2xx: ${b}`);
}

/**
 * The figure issue #27 judges: CPU per withdrawal over its whole life, every process of the full stack
 * (the six apps, the broker, PostgreSQL's backends), over the open loop's window. The window is long
 * against a withdrawal's life (a few seconds on the bench's chains: 250 ms blocks, final after 2), so it holds as many chain moves and
 * projections of earlier withdrawals as of its own it leaves for after: a steady state. The baseline
 * process (idle while A runs) and the generator are shown apart, not in the total.
 */
function printWholeLife(r: PhaseResult): void {
  const per = r.costs.cpuMsPerRequest;
  const parts = [...APPS, 'kafka', 'postgres'].filter((k) => per[k] !== undefined);
  const total = parts.reduce((n, k) => n + per[k], 0);
  console.log(
    `  WHOLE-LIFE CPU ms per withdrawal (open loop): ${parts.map((k) => `${k} ${fmt(per[k])}`).join(', ')}; TOTAL ${fmt(Math.round(total * 100) / 100)}`,
  );
  console.log(`    not in the total: baseline process (idle) ${fmt(per.baseline)}, generator ${fmt(per.bench)}`);
}

/**
 * Issue #27 item 2: the open loop's latency distribution, and what each process spent the window on
 * besides its work (scripts/bench/tail-sources.ts): waiting for a core, collecting garbage, and
 * PostgreSQL's backends by what they waited on.
 */
function printTail(r: OpenRun): void {
  const bounds = LATENCY_BUCKETS_MS.map((b, i) => `${i === 0 ? 0 : LATENCY_BUCKETS_MS[i - 1]}-${b}`).concat(
    `>${LATENCY_BUCKETS_MS.at(-1)}`,
  );
  const d = r.load.latencyMs;
  console.log(
    `  LATENCY DISTRIBUTION (POST, ms): p50 ${fmt(d?.p50)}, p90 ${fmt(d?.p90)}, p95 ${fmt(d?.p95)}, p99 ${fmt(d?.p99)}, p99.9 ${fmt(d?.p999)}`,
  );
  console.log(`    answers per bucket: ${bounds.map((b, i) => `${b} ms ${r.histogram[i]}`).join(', ')}`);
  const t = r.tail;
  console.log(
    `  TAIL SOURCES over ${fmt(t.seconds)} s: some task waiting for a core ${fmt(t.cpuPressurePct)} % of the time (/proc/pressure/cpu)`,
  );
  const rows = Object.entries(t.runQueueMsPerS).map(([app, waiting]) => {
    const gc = r.costs.gc[app];
    return [app, fmt(waiting), fmt(gc?.msPerSecond), gc ? String(gc.over10ms) : '-', fmt(r.costs.eventLoopP99Ms[app])];
  });
  console.log(table(['app', 'main thread waiting for a core, ms/s', 'GC ms/s', 'GCs > 10 ms', 'event-loop lag p99 ms'], rows));
  const waits = Object.entries(t.postgres.byWait)
    .slice(0, 6)
    .map(([w, pct]) => `${w} ${fmt(pct)} %`);
  console.log(`    PostgreSQL active backends (${t.postgres.backendSamples} samples): ${waits.join(', ') || 'none active'}`);
}

/** The six apps' memory under load against the goal, and where it is (V8 heap, outside it) after the runs. */
function printMemory(m: MemoryUnderLoad, heap: Record<string, HeapSplit | null>, pss: Record<string, number | null>): void {
  console.log(
    `\nMEMORY  the six apps' RSS while the full stack took POSTs (every ${underLoad.everyMs} ms, ${m.samples} samples); heap and PSS after the bench, MB`,
  );
  const mb = (n: number | null | undefined) => (n === null || n === undefined ? '-' : String(Math.round(n)));
  const rows = APPS.map((app) => {
    const a = m.perApp[app];
    const h = heap[app];
    return [app, mb(a?.median), mb(a?.peak), h ? `${h.heapUsed} / ${h.heapTotal}` : '-', mb(h?.external), mb(pss[app])];
  });
  const pssSum = APPS.reduce((n, app) => n + (pss[app] ?? 0), 0);
  rows.push(['six apps', mb(m.sum?.median), mb(m.sum?.peak), '', '', mb(pssSum)]);
  console.log(table(['app', 'RSS median', 'RSS peak', 'heap used / total', 'external', 'PSS'], rows));
  if (!m.sum) {
    console.log(`  goal ≤ ${MEMORY_GOAL_MB} MB: not measured (no full-stack run)`);
    return;
  }
  const over = m.sum.peak - MEMORY_GOAL_MB;
  console.log(
    `  six apps under load: peak ${mb(m.sum.peak)} MB, median ${mb(m.sum.median)} MB; goal ≤ ${MEMORY_GOAL_MB} MB: ` +
      (over <= 0 ? `MET (peak ${mb(-over)} MB under)` : `MISSED (peak ${mb(over)} MB over)`),
  );
}

// ---------------------------------------------------------------------------------------- main
async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  mkdirSync(LOG_DIR, { recursive: true });
  const adminKey = `adm_bench_${randomBytes(18).toString('base64url')}`;
  const timings: Record<string, number> = {};
  const time = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await f();
    timings[name] = Math.round(performance.now() - t0);
    return result;
  };
  const environment = {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadavgAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
    startedAt: new Date().toISOString(),
  };
  console.log(
    `withdrawals bench: node ${environment.node}, ${environment.cpus} cpus (${environment.cpuModel}), load ${environment.loadavgAtStart.join(' ')}`,
  );
  console.log(
    `  runs ${o.runs.join(',')}; ${o.requests} requests per pass at concurrency ${o.concurrency.join(', ')}; open loop ${o.openSeconds} s; warm-up ${o.warmup}`,
  );

  const db = new BenchDatabase(DATABASE_URL, CHAIN);
  const results: Record<string, unknown> = {};
  try {
    try {
      kafka('stop', KAFKA_PORT);
    } catch {
      /* not running */
    }
    rmSync(KAFKA_DATA_DIR, { recursive: true, force: true });
    kafkaStarted = true;
    await time('kafkaStartMs', () => kafka('start', KAFKA_PORT));
    // The withdrawals are paid on chain (scripts/chain): a node per network, the bench's hot wallet funded.
    const hotWallet = ensureHotWalletKey(join(OUT_DIR, 'hot-wallet.key'));
    chainsStarted = true;
    const chains = await time('chainsStartMs', () =>
      ensureLocalChains({ ports: CHAIN_PORTS, hotWallet: hotWallet.address, blockTimeMs: TEST_BLOCK_TIME_MS, fresh: true }),
    );
    counterparties = await startBenchCounterparties('withdrawals');
    await time('databaseRecreateMs', () => recreateDatabase(DATABASE_URL));
    await time('migrateMs', () => migrate(DATABASE_URL));
    if (o.build) await time('buildMs', () => buildWorkspace(root));
    for (const name of [...APPS, 'baseline']) rmSync(join(LOG_DIR, `${name}.log`), { force: true });
    const stackOptions: StackOptions = {
      kafkaPort: KAFKA_PORT,
      databaseUrl: DATABASE_URL,
      gatewayPort: GATEWAY_PORT,
      healthPortBase: HEALTH_PORT_BASE,
      logDir: LOG_DIR,
      env: {
        SANDBOX: 'true',
        ADMIN_API_KEY: adminKey,
        LOG_LEVEL: 'warn',
        ...chainAppEnv(chains, hotWallet.keyFile, TEST_CHAIN_TIMINGS),
        // pix-keys' DICT test server and the owner notifier's sinks (bench-counterparties.ts).
        ...counterparties.env,
        REQUEST_TIMEOUT_MS: '10000',
        // The bench measures the stack, not the per-partner rate limit.
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    };
    const s = await time('stackReadyMs', () => startBenchApps(stackOptions));
    await time('baselineReadyMs', () => startBaseline(stackOptions));
    await db.connect();
    console.log(
      `kafka start ${secs(timings.kafkaStartMs)}, database ${secs(timings.databaseRecreateMs)}, migrate ${secs(timings.migrateMs)}` +
        `${o.build ? `, build ${secs(timings.buildMs)}` : ', build skipped'}, stack ready ${secs(timings.stackReadyMs)}, baseline ready ${secs(timings.baselineReadyMs)}`,
    );
    if (db.statementsNote) console.log(`note: ${db.statementsNote}`);

    const admin = new ApiClient(s.gatewayUrl, { 'x-admin-key': adminKey });
    const maxConcurrency = Math.max(...o.concurrency, HOT_CONCURRENCY);
    // Twice the concurrency: in a closed loop the requests in flight are not a window of consecutive
    // indices (a slow one is still running when later ones start), so with P×U equal to the concurrency,
    // requests i and i+P×U of one user met often enough at c=64 to serialize on its account row and on
    // its Kafka key: c=64 measured that queueing (the in-process baseline too fell 23 % from c=32 to c=64,
    // 899 → 692 req/s), not the stack's concurrency. With 2×: c=32 421 → c=64 519 req/s, the baseline
    // 680 → 742, the same day.
    const usersPerPartner = Math.max(o.users, Math.ceil((2 * maxConcurrency) / o.partners));
    const partners = await time('setupMs', () => createPartners(admin, o.partners, usersPerPartner));
    const urls: Record<StackName, string> = { full: s.gatewayUrl, baseline: `http://127.0.0.1:${BASELINE_PORT}` };

    if (o.warmup > 0) {
      // JIT, pools and the broker's first produce; not measured, drained before the first pass. Then a
      // share at the lowest measured concurrency: one request at a time runs paths a concurrent load does
      // not (a batch of one everywhere), and without it the first c=1 pass measured warm-up, not the stack
      // (p50 12 ms in the first full pass against 6-9 ms in the fourth, three runs out of three).
      const warm: Record<string, unknown> = {};
      const lowest = Math.min(...o.concurrency);
      for (const n of ['full', 'baseline'] as const) {
        const r = await closedLoop(o.warmup, Math.min(16, maxConcurrency), spread(urls[n], partners), stopped);
        const low = lowest < 16 ? await closedLoop(Math.ceil(o.warmup / 2), lowest, spread(urls[n], partners), stopped) : null;
        await db.waitFinished([...r.ids, ...(low?.ids ?? [])], DRAIN_TIMEOUT_MS, o.pollMs, stopped);
        warm[n] = {
          throughput: r.throughput,
          statusCounts: r.statusCounts,
          ...(low ? { lowConcurrency: lowest, lowThroughput: low.throughput } : {}),
        };
      }
      results.warmup = warm;
      console.log(
        `warm-up: ${o.warmup} requests on each stack (then half as many at the lowest measured concurrency), ${JSON.stringify(results.warmup)}`,
      );
    }

    let closed: ClosedLevel[] = [];
    if (o.runs.includes('closed') && !interrupted) {
      console.log('\nclosed loop, A-B-B-A per level:');
      closed = await runClosed(db, urls, partners, o);
      results.closed = closed.map((l) => ({
        ...l,
        passes: l.passes.map(({ load: { latencies: _omit, ids: _ids, ...load }, ...rest }) => ({ ...rest, load })),
      }));
    }
    let peakFull: ReturnType<typeof peak> | null = null;
    if (closed.length > 0) {
      peakFull = peak(closed, 'full');
      const peakBase = peak(closed, 'baseline');
      results.peak = { full: peakFull, baseline: peakBase, ratio: Math.round((peakFull.throughput / peakBase.throughput) * 1000) / 1000 };
    }

    let sustained: Awaited<ReturnType<typeof runSustained>> | undefined;
    if (o.runs.includes('sustained') && !interrupted) {
      // Without a closed run, the ceiling is twice the asked open rate (or 1,000 req/s).
      const ceiling = peakFull?.throughput ?? (o.openRate === null ? 1000 : o.openRate * 2);
      console.log(`\nsustained: the highest open-loop rate the stack keeps up with, halving between 0 and ${fmt(ceiling)} req/s`);
      sustained = await runSustained(db, urls.full, partners, ceiling, o);
      results.sustained = sustained;
    }

    // The open loops' rates: as asked, else each --open-share of the peak: the sustained rate when the sustained
    // run found one, else the full stack's closed-loop peak (20 req/s without either).
    const basis = sustained?.rate
      ? { rate: sustained.rate, name: 'sustained rate' }
      : peakFull
        ? { rate: peakFull.throughput, name: 'closed-loop peak' }
        : null;
    const openRates = (): Array<{ rate: number; why: string }> =>
      o.openRate !== null
        ? [{ rate: o.openRate, why: 'as asked' }]
        : basis
          ? o.openShares.map((share) => ({
              rate: Math.max(1, Math.round(basis.rate * share * 10) / 10),
              why: `${Math.round(share * 100)} % of the ${basis.name}, ${fmt(basis.rate)} req/s`,
            }))
          : [{ rate: 20, why: 'no closed or sustained run: default 20 req/s' }];
    const openRate = () => openRates()[0].rate;
    const opens: OpenRun[] = [];
    for (const { rate, why } of o.runs.includes('open') ? openRates() : []) {
      if (interrupted) break;
      console.log(`\nopen loop: ${rate} req/s for ${o.openSeconds} s on the full stack (${why})`);
      opens.push(await runOpen(db, urls.full, partners, rate, o));
    }
    /** A run as results.json keeps it: without the raw latencies and ids. */
    const withoutRaw = <R extends { load: LoadResult }>({ load: { latencies: _l, ids: _i, ...load }, ...rest }: R) => ({ ...rest, load });
    if (opens.length > 0) {
      results.open = withoutRaw(opens[0]);
      results.opens = opens.map(withoutRaw);
    }
    let hot: PhaseResult | undefined;
    let feedLoad: { feed: FeedBenchResult; open: OpenRun } | undefined;
    if (o.runs.includes('hot') && !interrupted) {
      console.log(`\nhot account: ${o.requests} requests, one user of one partner, c=${HOT_CONCURRENCY}, full stack`);
      hot = await runHot(db, urls.full, partners[0], o);
      results.hot = withoutRaw(hot);
    }
    if (o.runs.includes('feed') && !interrupted) {
      console.log('\nfeed run (scripts/bench/feed.bench.ts)');
      results.feed = await runFeed({
        gatewayUrl: urls.full,
        databaseUrl: DATABASE_URL,
        adminKey,
        partnerKeys: partners.map((p) => p.key),
        requests: o.requests,
        concurrency: o.concurrency,
      });
    }
    if (o.runs.includes('feed-load') && !interrupted) {
      // Issue #27 item 3: the feed's p99 while money flows, not only on an idle stack. The open loop starts once
      // the feed's events are seeded and outlasts its warm-up and measured run.
      const rate = openRate();
      const feedSeconds = Math.max(5, o.openSeconds - 8);
      console.log(
        `\nfeed run while withdrawals arrive at ${rate} req/s (open loop, ${o.openSeconds} s; the feed measured ${feedSeconds} s of it)`,
      );
      let loop: Promise<OpenRun> | undefined;
      const feed = await runFeed({
        gatewayUrl: urls.full,
        databaseUrl: DATABASE_URL,
        adminKey,
        seconds: feedSeconds,
        // Its own 3 s, and the open loop's unmeasured warm-up: the feed is measured inside the loop's measured window.
        warmupSeconds: 3 + o.openWarmup,
        ...(o.feedRate === null ? {} : { rate: o.feedRate }),
        onSeeded: () => {
          loop = runOpen(db, urls.full, partners, rate, o);
        },
      });
      feedLoad = loop && { feed, open: await loop };
      if (feedLoad) results.feedUnderLoad = { feed, withdrawals: withoutRaw(feedLoad.open) };
    }
    let scale: ScaleResult | undefined;
    if (o.runs.includes('scale') && !interrupted) {
      console.log(
        `\nscale: ${o.requests} requests at c=${Math.max(...o.concurrency)} on one instance of every app, then on two (passes one-two-two-one)`,
      );
      scale = await runScale(db, stackOptions, partners, o);
      results.scale = scale;
    }
    assertAlive();

    // After everything: memory and the full run's event-loop lag are per process, not per run.
    const rss: Record<string, number | null> = {};
    for (const [name, p] of processes()) rss[name] = rssMb(p.pid);
    rss.kafka = rssMb(brokerPid());
    results.rssMbAfter = rss;
    const heap: Record<string, HeapSplit | null> = {};
    const pss: Record<string, number | null> = {};
    for (const [name, p] of processes()) {
      heap[name] = await heapSplitMb(metricsUrl(name));
      pss[name] = pssMb(p.pid);
    }
    const memory = underLoad.summary();
    results.memory = { goalMb: MEMORY_GOAL_MB, underLoad: memory, heapMbAfter: heap, pssMbAfter: pss };

    if (interrupted) return;
    if (closed.length > 0) {
      printClosed(closed);
      const pk = results.peak as {
        full: { throughput: number; concurrency: number };
        baseline: { throughput: number; concurrency: number };
        ratio: number;
      };
      console.log(
        `\n  PEAK  full ${fmt(pk.full.throughput)} req/s (c=${pk.full.concurrency})  baseline ${fmt(pk.baseline.throughput)} req/s (c=${pk.baseline.concurrency})  ratio full/baseline ${pk.ratio.toFixed(3)}`,
      );
    }
    if (sustained) {
      const found = sustained.rate;
      console.log(
        `\nSUSTAINED  ${found === null ? 'no rate kept up' : `${fmt(found)} req/s`}: the highest open-loop rate the whole stack kept up with ` +
          `(every POST 201, answered at the rate sent, outbox and chain backlogs within a second of arrivals at the end), ` +
          `${sustained.probes.length} probes of ${o.sustainedSeconds} s below ${fmt(sustained.ceiling)} req/s` +
          (found === null
            ? ''
            : `; ${fmt(found / sustained.ceiling)} of the closed-loop peak; 50 % ${fmt(found / 2)}, 80 % ${fmt(found * 0.8)} req/s`),
      );
      console.log(
        table(
          ['rate', 'kept up', 'answered req/s', 'POST p99 ms', 'outbox end', 'chain due end', 'drained s', 'why'],
          sustained.probes.map((p) => [
            fmt(p.rate),
            p.keptUp ? 'yes' : 'no',
            fmt(p.throughput),
            fmt(p.p99),
            String(p.outboxEnd),
            String(p.chainDueEnd),
            p.drainMs === null ? '-' : fmt(p.drainMs / 1000),
            p.why,
          ]),
        ),
      );
    }
    for (const open of opens) {
      const b = open.backlog;
      const ol = open.load as OpenLoopResult;
      printPhase(`OPEN LOOP  ${ol.ratePerSecond} req/s for ${o.openSeconds} s, full stack (latency from the scheduled send)`, open, [
        `outbox backlog (rows, all services): start ${b.outbox.start}, max ${b.outbox.max}, end ${b.outbox.end}; chain backlog (due, not moved): start ${b.chainDue.start}, max ${b.chainDue.max}, end ${b.chainDue.end}; ${b.samples} samples`,
        `generator: max ${ol.maxInFlight} in flight, sent at most ${fmt(ol.maxSendDelayMs)} ms late`,
      ]);
      printWholeLife(open);
      printTail(open);
    }
    if (hot) printPhase(`HOT ACCOUNT  one user, c=${HOT_CONCURRENCY}, full stack`, hot);
    if (feedLoad) {
      const ol = feedLoad.open.load as OpenLoopResult;
      const f = feedLoad.feed;
      printPhase(`WITHDRAWALS DURING THE FEED RUN  ${ol.ratePerSecond} req/s for ${o.openSeconds} s, full stack`, feedLoad.open);
      console.log(
        `  FEED WHILE MONEY FLOWS  ${f.requests} reads ${f.rate === null ? `of ${f.connections} connections (closed loop)` : `at ${f.rate}/s on a schedule`} in ${f.seconds} s, ${fmt(f.throughput)} req/s: p50 ${fmt(f.latencyMs?.p50)} p99 ${fmt(f.latencyMs?.p99)} ms (goal p99 ≤ 20 ms: ${(f.latencyMs?.p99 ?? Infinity) <= 20 ? 'met' : 'MISSED'})`,
      );
    }
    const loopRows = [...processes().keys()].map((n) => {
      const all = [...closed.flatMap((l) => l.passes), ...opens, ...(hot ? [hot] : [])]
        .map((p) => p.costs.eventLoopP99Ms[n])
        .filter((v): v is number => typeof v === 'number');
      return [n, fmt(rss[n]), all.length ? fmt(Math.max(...all)) : '-'];
    });
    loopRows.push(['kafka', fmt(rss.kafka), '-']);
    console.log('\nPROCESSES  RSS after the bench; event-loop lag p99 = worst over the measured runs');
    console.log(table(['process', 'RSS MB', 'loop p99 ms'], loopRows));
    printMemory(memory, heap, pss);
    if (db.statementsNote) console.log(`  ${db.statementsNote}`);
    if (results.feed) console.log(`\nFEED  ${JSON.stringify(results.feed)}`);
    if (scale)
      console.log(
        `\nSCALE  c=${scale.concurrency}: one instance of every app ${fmt(scale.one)} req/s, two ${fmt(scale.two)} req/s: two/one ${scale.ratio.toFixed(3)} ` +
          `(goal ≥ 0.90: ${scale.ratio >= 0.9 ? 'met' : 'MISSED'}); members per group with two: ${JSON.stringify(scale.members)}`,
      );
  } finally {
    const resultFile = join(OUT_DIR, 'results.json');
    writeFileSync(
      resultFile,
      `${JSON.stringify(
        {
          environment,
          options: o,
          ports: { kafka: KAFKA_PORT, gateway: GATEWAY_PORT, baseline: BASELINE_PORT, healthBase: HEALTH_PORT_BASE },
          chain: { ports: CHAIN_PORTS, blockTimeMs: TEST_BLOCK_TIME_MS, ...TEST_CHAIN_TIMINGS, due: CHAIN },
          timings,
          notes: db.statementsNote ? [db.statementsNote] : [],
          ...results,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nresults: ${resultFile}; app logs: ${LOG_DIR}`);
    await db.end();
    await cleanup();
  }
}

// `--auth-flood` / `--lists`: the flood-of-made-up-keys case (auth-flood.bench.ts) or the lists at a million
// rows (lists.bench.ts) instead, with the other arguments.
const otherBench = (['auth-flood', 'lists'] as const).find((name) => process.argv.includes(`--${name}`));
if (otherBench) {
  const args = process.argv.slice(2).filter((a) => a !== `--${otherBench}` && a !== '--');
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, `scripts/bench/${otherBench}.bench.ts`), ...args], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else
  main().then(
    () => process.exit(interrupted ? 130 : 0),
    async (error: unknown) => {
      console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
      await cleanup();
      process.exit(1);
    },
  );
