/**
 * `npm run bench`: USDT withdrawals through the whole stack against an in-process baseline (tools/bench-baseline),
 * same launch, database and broker. Runs, flags, measures: docs/benchmarks/the-benches.md.
 */
import { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { appEnv, RunningStack, StackOptions } from '../stack/stack';
import { TEST_BLOCK_TIME_MS, TEST_CHAIN_TIMINGS } from '../chain/chain-env';
import { appNodeFlags, APPS, AppName, healthPortOf } from '../lib/services';
import { FeedBenchOptions, FeedBenchResult, runFeedBench } from './feed.bench';
import * as h from './harness';
import { Distribution, fmt, LoadClient, LoadResult, Outcome, SandboxPartner, secs, table } from './harness';
import * as p from './probes';

const AT = h.benchPlace('BENCH', '', { kafka: 29092, gateway: 23000, health: 23100, chain: 23545 });
const BASELINE_PORT = AT.gatewayPort + 1;
/** The payout worker's health port with --payouts-apart: past the stack's (gateway, five services). */
const PAYOUT_WORKER_PORT = AT.healthPortBase + 20;
/** A chain move is due once `created` outlasts two payout rounds, or `sent` its confirmations' blocks and two rounds; a second of slack each. */
const CHAIN = {
  sendDelayMs: 2 * TEST_CHAIN_TIMINGS.pollMs + 1000,
  settleDelayMs: (TEST_CHAIN_TIMINGS.confirmations + 1) * TEST_BLOCK_TIME_MS + 2 * TEST_CHAIN_TIMINGS.pollMs + 1000,
};
const DRAIN_TIMEOUT_MS = 180_000;
const RUN_NAMES = ['closed', 'sustained', 'open', 'hot', 'feed', 'feed-load'] as const;
type RunName = (typeof RUN_NAMES)[number];
const HOT_CONCURRENCY = 32;
/** Issue #27: the six apps together, RSS summed, under a withdrawal load. */
const MEMORY_GOAL_MB = 600;
const CPU_COLUMNS = ['gateway', 'baseline', 'withdrawals', 'payouts', 'events', 'kafka', 'postgres', 'bench'];
const bench = new h.Bench('bench');
const stopped = bench.stopped;

function parseOptions() {
  const o = h.cli(`npm run bench -- [flags]; runs: ${RUN_NAMES.join(',')}`, {
    requests: h.number(2000, 1, 'BENCH_REQUESTS'),
    concurrency: h.numbers('1,8,32,64', 1, 'BENCH_CONCURRENCY'),
    warmup: h.number(1000, 0, 'BENCH_WARMUP'),
    partners: h.number(4, 1, 'BENCH_PARTNERS'),
    users: h.number(8, 1, 'BENCH_USERS'),
    'poll-ms': h.number(250, 10, 'BENCH_POLL_MS'),
    'open-seconds': h.number(60, 1, 'BENCH_OPEN_SECONDS'),
    'open-rate': h.number(undefined, 0.1, 'BENCH_OPEN_RATE', false),
    'open-share': h.numbers('0.5', 0.01, 'BENCH_OPEN_SHARE', false),
    'open-warmup': h.number(30, 0, 'BENCH_OPEN_WARMUP'),
    'feed-rate': h.number(undefined, 0.1, 'BENCH_FEED_RATE', false),
    'sustained-seconds': h.number(20, 5, 'BENCH_SUSTAINED_SECONDS'),
    runs: h.text('closed,open,hot', 'BENCH_RUNS', 'LIST'),
    feed: h.flag(),
    /** The payout rounds in a worker of their own (PAYOUTS_ONLY, as Compose runs them), the stack's withdrawals with PAYOUTS_ENABLED=false. */
    'payouts-apart': h.flag('BENCH_PAYOUTS_APART'),
    'no-build': h.flag('BENCH_NO_BUILD'),
  });
  const runs = h.list(o.runs).map((s) => {
    if (!(RUN_NAMES as readonly string[]).includes(s)) throw new Error(`--runs takes ${RUN_NAMES.join(',')}, got ${s}`);
    return s as RunName;
  });
  if (o.feed && !runs.includes('feed')) runs.push('feed');
  if (o.openShare.some((x) => x > 1)) throw new Error('--open-share takes shares in (0, 1]');
  return { ...o, runs, build: !o.noBuild };
}
type Options = ReturnType<typeof parseOptions>;

// ------------------------------------------------------------------------------ the processes
type ProcName = AppName | 'baseline' | 'payouts';
let stack: RunningStack | undefined;
let baseline: ChildProcess | undefined;
let payoutWorker: ChildProcess | undefined;
const brokerPid = () => p.brokerPid(AT.kafkaPort);
const pidsOf = (m: Map<string, ChildProcess>) => new Map<string, number | undefined>([...m].map(([name, c]) => [name, c.pid]));

/** The in-process baseline: the gateway's environment on its own port; its /readyz would report the services it does not serve. */
async function startBaseline(o: StackOptions): Promise<void> {
  const main = join(h.root, 'dist/tools/bench-baseline/src/main.js');
  const env = { ...appEnv('gateway', o), PORT: String(BASELINE_PORT), HEALTH_PORT: '0', ADMIN_PORT: '0' };
  const [log, health] = [join(AT.logDir, 'baseline.log'), `http://127.0.0.1:${BASELINE_PORT}/healthz`];
  baseline = await bench.process('the baseline', process.execPath, [...appNodeFlags('withdrawals'), main], env, log, health, 60_000);
}

/** --payouts-apart: the withdrawals app as a payout worker (PAYOUTS_ONLY), Compose's `payouts` service. */
async function startPayoutWorker(o: StackOptions): Promise<void> {
  const main = join(h.root, 'dist/apps/withdrawals/src/main.js');
  const env = { ...appEnv('withdrawals', o), PAYOUTS_ENABLED: 'true', PAYOUTS_ONLY: 'true', HEALTH_PORT: String(PAYOUT_WORKER_PORT) };
  const [log, health] = [join(AT.logDir, 'payouts.log'), `http://127.0.0.1:${PAYOUT_WORKER_PORT}/readyz`];
  payoutWorker = await bench.process(
    'the payout worker',
    process.execPath,
    [...appNodeFlags('withdrawals'), main],
    env,
    log,
    health,
    60_000,
  );
}

function processes(): Map<ProcName, ChildProcess> {
  const all = new Map<ProcName, ChildProcess>(stack?.processes ?? []);
  if (baseline) all.set('baseline', baseline);
  if (payoutWorker) all.set('payouts', payoutWorker);
  return all;
}

/** The six apps' RSS (and the payout worker's) while the full stack takes POSTs. */
const underLoad = new p.RssSampler(() => {
  const pids = pidsOf(stack?.processes ?? new Map());
  return payoutWorker ? pids.set('payouts', payoutWorker.pid) : pids;
});

function assertAlive(): void {
  for (const [name, c] of processes())
    if (c.exitCode !== null || c.signalCode !== null)
      throw new Error(`${name} exited (${c.exitCode ?? c.signalCode}) during the bench; see ${AT.logDir}`);
}

/** The gateway serves /metrics on its admin port, the baseline on its HTTP port, services on their health port. */
const metricsUrl = (name: ProcName) =>
  `http://127.0.0.1:${name === 'baseline' ? BASELINE_PORT : name === 'payouts' ? PAYOUT_WORKER_PORT : healthPortOf(name, AT.healthPortBase)}/metrics`;

// ------------------------------------------------------------------------------------ one measured run
const non2xx = (counts: Record<string, number>) => Object.entries(counts).reduce((n, [k, v]) => (k.startsWith('2') ? n : n + v), 0);
const count5xx = (counts: Record<string, number>) => Object.entries(counts).reduce((n, [k, v]) => (/^(5|error)/.test(k) ? n + v : n), 0);
type PhaseResult = Awaited<ReturnType<typeof measure>>;

/** One measured run: load, then drain, with CPU, event-loop, GC, database and lag measures around it. */
async function measure<L extends LoadResult>(db: p.BenchDatabase, load: () => Promise<L>, pollMs: number, fullStack: boolean) {
  assertAlive();
  const names = [...processes().keys()];
  const pids = () => pidsOf(processes()).set('kafka', brokerPid());
  const scrape = () => Promise.all(names.map(async (n) => [n, await p.scrapeApp(metricsUrl(n))] as const));
  const before = new Map(await scrape()); // resets prom-client's event-loop histograms
  const counters0 = await db.counters();
  const cpu0 = await p.cpuSnapshot(pids(), db.client);
  const t0 = performance.now();
  if (fullStack) await underLoad.start();
  const result = await load().finally(() => fullStack && underLoad.stop());
  const cpu1 = await p.cpuSnapshot(pids(), db.client);
  const seconds = (performance.now() - t0) / 1000;
  const after = await scrape();
  const drainStart = performance.now();
  const unfinished = await db.waitFinished(result.ids, DRAIN_TIMEOUT_MS, pollMs, stopped);
  const drainMs = unfinished === 0 ? Math.round(performance.now() - drainStart) : null;
  const dbDelta = p.counterDelta(counters0, await db.counters());
  const cpu = Object.fromEntries(Object.entries(p.cpuDelta(cpu0, cpu1)).map(([k, v]) => [k, Math.round(v)]));
  const per = (n: number, digits: number) => h.round(n / Math.max(1, result.requests), digits);
  return {
    load: result,
    lag: await db.creationToFeedLag(result.ids),
    /** From the last answer until every withdrawal was final in the feed; null when it timed out. */
    drainMs,
    unfinished,
    costs: {
      cpuMsPerRequest: p.perUnit(cpu, result.requests),
      cpuMs: cpu,
      eventLoopP99Ms: Object.fromEntries(after.map(([n, a]) => [n, a.loopP99Ms])),
      gc: Object.fromEntries(after.map(([n, a]) => [n, p.gcWindow(before.get(n)?.gc, a.gc, seconds)])),
      db: dbDelta,
      commitsPerRequest: per(dbDelta.xactCommit, 2),
      statementsPerRequest: dbDelta.statements === null ? null : per(dbDelta.statements, 1),
    },
  };
}

/** Request i: partner i mod P, user (i div P) mod U: requests in flight hit different users. */
function spread(url: string, partners: SandboxPartner[]) {
  const clients = partners.map((x) => new LoadClient(url, x.key));
  return (i: number, since: number): Promise<Outcome> => {
    const [k, j] = [i % partners.length, Math.floor(i / partners.length)];
    return h.postWithdrawal(clients[k], partners[k].users[j % partners[k].users.length], since);
  };
}

// ------------------------------------------------------------------------------------ closed loop, A-B-B-A
type StackName = 'full' | 'baseline';
type ClosedPass = PhaseResult & { stack: StackName; pass: number };
function aggregate(passes: ClosedPass[]) {
  const requests = passes.reduce((n, x) => n + x.load.requests, 0);
  const sum = (f: (x: ClosedPass) => number) => passes.reduce((n, x) => n + f(x), 0);
  const cpu: Record<string, number> = {};
  for (const x of passes) for (const [k, v] of Object.entries(x.costs.cpuMs)) cpu[k] = (cpu[k] ?? 0) + v;
  const lags = passes.flatMap((x) => (x.lag.lagMs ? [x.lag.lagMs] : []));
  return {
    requests,
    throughput: h.round(requests / (sum((x) => x.load.durationMs) / 1000), 1),
    latencyMs: h.distribution(passes.flatMap((x) => x.load.latencies)),
    non2xx: sum((x) => non2xx(x.load.statusCounts)),
    // Across passes the worst pass's lag is what matters.
    lagMs: lags.length ? lags.reduce((a, b) => (b.p99 > a.p99 ? b : a)) : null,
    cpuMsPerRequest: p.perUnit(cpu, requests),
    commitsPerRequest: h.round(sum((x) => x.costs.db.xactCommit) / requests),
    tuplesWrittenPerRequest: h.round(sum((x) => x.costs.db.tupInserted + x.costs.db.tupUpdated + x.costs.db.tupDeleted) / requests),
  };
}

/** A level's two stacks, their passes merged; Δ = full − baseline, ms. */
function level(concurrency: number, passes: ClosedPass[]) {
  const [full, baseline] = [aggregate(passes.filter((x) => x.stack === 'full')), aggregate(passes.filter((x) => x.stack === 'baseline'))];
  const d = (f: (x: Distribution) => number) =>
    full.latencyMs && baseline.latencyMs ? h.round(f(full.latencyMs) - f(baseline.latencyMs)) : null;
  const throughputRatio = baseline.throughput ? h.round(full.throughput / baseline.throughput, 3) : null;
  return { concurrency, passes, full, baseline, deltaP50Ms: d((x) => x.p50), deltaP99Ms: d((x) => x.p99), throughputRatio };
}
type ClosedLevel = ReturnType<typeof level>;

async function runClosed(db: p.BenchDatabase, urls: Record<StackName, string>, partners: SandboxPartner[], o: Options) {
  const levels: ClosedLevel[] = [];
  for (const c of o.concurrency) {
    const passes: ClosedPass[] = [];
    // A-B-B-A: the machine's drift falls on both stacks alike.
    for (const [k, name] of (['full', 'baseline', 'baseline', 'full'] as const).entries()) {
      if (stopped()) return levels;
      const r = await measure(db, () => h.closedLoop(o.requests, c, spread(urls[name], partners), stopped), o.pollMs, name === 'full');
      passes.push({ ...r, stack: name, pass: k + 1 });
      const l = r.load.latencyMs;
      console.log(
        `  c=${c} pass ${k + 1} ${name.padEnd(8)} ${fmt(r.load.throughput).padStart(7)} req/s  p50 ${fmt(l?.p50)}  p99 ${fmt(l?.p99)} ms  non-2xx ${non2xx(r.load.statusCounts)}  lag p99 ${fmt(r.lag.lagMs?.p99)} ms  drained ${r.drainMs === null ? 'NO' : secs(r.drainMs)}`,
      );
    }
    levels.push(level(c, passes));
  }
  return levels;
}

const peak = (levels: ClosedLevel[], s: StackName) => {
  const best = levels.reduce((a, b) => (b[s].throughput > a[s].throughput ? b : a));
  return { throughput: best[s].throughput, concurrency: best.concurrency };
};

// ------------------------------------------------------------------------------------ open loop and sustained rate
type OpenRun = Awaited<ReturnType<typeof runOpen>>;

async function runOpen(db: p.BenchDatabase, url: string, partners: SandboxPartner[], rate: number, o: Options) {
  // A fresh broker's JIT is not at its steady state after the closed warm-up (docs/benchmarks/the-benches.md, "The runs").
  if (o.openWarmup > 0) {
    console.log(`  warm-up: ${o.openWarmup} s of the same open loop, not measured`);
    await h.openLoop(rate, o.openWarmup, spread(url, partners), stopped);
  }
  const sampler = new p.BacklogSampler(db);
  await sampler.start();
  const load = () => h.openLoop(rate, o.openSeconds, spread(url, partners), stopped);
  // The backlog while requests arrive; the drain is reported apart.
  const r = await measure(db, () => load().finally(() => sampler.stop()), o.pollMs, true);
  return { ...r, backlog: sampler.summary(), samples: sampler.samples, histogram: p.histogram(r.load.latencies) };
}

/** Kept up with: every POST 201, answered at the rate sent, and the outbox and chain backlogs within a second of arrivals at the end. */
function keptUp(r: OpenRun, rate: number): { keptUp: boolean; why: string } {
  const { requests, statusCounts, throughput, latencyMs } = r.load;
  const created = statusCounts['201'] ?? 0;
  const second = Math.max(10, Math.round(rate));
  const { outbox, chainDue } = r.backlog;
  const no = (why: string) => ({ keptUp: false, why });
  if (created < requests) return no(`${requests - created} of ${requests} answers not 201`);
  if (throughput < rate * 0.95) return no(`answered ${fmt(throughput)} req/s of ${fmt(rate)} sent`);
  if (outbox.end > second) return no(`outbox backlog ${outbox.end} rows at the end (max ${outbox.max})`);
  if (chainDue.end > chainDue.start + second) return no(`chain backlog ${chainDue.end} due at the end (started at ${chainDue.start})`);
  return { keptUp: true, why: `POST p99 ${fmt(latencyMs?.p99)} ms, backlogs at the end: outbox ${outbox.end}, chain ${chainDue.end}` };
}

/** The highest open-loop rate kept up with, halving between 0 and `ceiling` (at most 6 probes, or within 5 % of it). */
async function runSustained(db: p.BenchDatabase, url: string, partners: SandboxPartner[], ceiling: number, o: Options) {
  let [low, high, rate] = [0, ceiling, Math.round(ceiling / 2)];
  const probes: Array<
    { rate: number; keptUp: boolean; why: string } & Record<'throughput' | 'p99' | 'outboxEnd' | 'chainDueEnd' | 'drainMs', number | null>
  > = [];
  while (probes.length < 6 && high - low > ceiling * 0.05 && !stopped()) {
    // Only the first probe is warmed up; the later ones follow a loaded stack within seconds.
    const r = await runOpen(db, url, partners, rate, {
      ...o,
      openSeconds: o.sustainedSeconds,
      openWarmup: probes.length === 0 ? o.openWarmup : 0,
    });
    const verdict = keptUp(r, rate);
    const { outbox, chainDue } = r.backlog;
    probes.push({
      rate,
      ...verdict,
      throughput: r.load.throughput,
      p99: r.load.latencyMs?.p99 ?? null,
      outboxEnd: outbox.end,
      chainDueEnd: chainDue.end,
      drainMs: r.drainMs,
    });
    console.log(`  ${fmt(rate)} req/s for ${o.sustainedSeconds} s: ${verdict.keptUp ? 'kept up' : 'fell behind'} (${verdict.why})`);
    if (verdict.keptUp) low = rate;
    else high = rate;
    rate = Math.round((low + high) / 2);
  }
  return { rate: low > 0 ? low : null, ceiling, probes };
}

// -------------------------------------------------------------------------------------- output
const latencyOf = (d: Distribution | null | undefined) => [d?.p50, d?.p90, d?.p99, d?.max];
/** Table cells: numbers through fmt, text as it is. */
const cells = (...xs: Array<string | number | null | undefined>) => xs.map((x) => (typeof x === 'string' ? x : fmt(x)));

function printClosed(levels: ClosedLevel[]): void {
  console.log('\nCLOSED LOOP  A = full stack (Kafka request-reply), B = in-process baseline; passes A-B-B-A, both passes merged');
  const both = (l: ClosedLevel) => [['A full', l.full] as const, ['B base', l.baseline] as const];
  const row = (l: ClosedLevel, ...xs: Array<string | number | null | undefined>) => cells(String(l.concurrency), ...xs);
  const rows = levels.flatMap((l) =>
    both(l).map(([name, a]) =>
      row(l, name, a.throughput, ...latencyOf(a.latencyMs), String(a.non2xx), a.lagMs?.p50, a.lagMs?.p99, a.lagMs?.max),
    ),
  );
  console.log(table(['conc', 'stack', 'req/s', 'p50', 'p90', 'p99', 'max', 'non-2xx', 'lag p50', 'lag p99', 'lag max'], rows));
  console.log('\n  full − baseline (ms) and throughput ratio per level');
  const deltas = levels.map((l) => row(l, l.deltaP50Ms, l.deltaP99Ms, l.throughputRatio));
  console.log(table(['conc', 'Δp50', 'Δp99', 'full/base req/s'], deltas));
  console.log(
    '\n  CPU ms per request while the POSTs ran (postgres = backends of partner_bench); commits and tuples written per request (until drained)',
  );
  const cpuRows = levels.flatMap((l) =>
    both(l).map(([name, a]) => {
      const total = Object.entries(a.cpuMsPerRequest).reduce((n, [k, v]) => (k === 'bench' ? n : n + v), 0);
      return row(l, name, ...CPU_COLUMNS.map((k) => a.cpuMsPerRequest[k]), total, a.commitsPerRequest, a.tuplesWrittenPerRequest);
    }),
  );
  console.log(table(['conc', 'stack', ...CPU_COLUMNS, 'total-bench', 'commits', 'tup w'], cpuRows));
}

function printPhase(title: string, r: PhaseResult, extra: string[] = []): void {
  const { load, lag } = r;
  console.log(`\n${title}`);
  const drained = r.drainMs === null ? `NO (${r.unfinished} left)` : secs(r.drainMs);
  const [counts, l] = [load.statusCounts, lag.lagMs];
  const row = cells(String(load.requests), load.throughput, ...latencyOf(load.latencyMs), String(non2xx(counts)), String(count5xx(counts)));
  row.push(...cells(l?.p50, l?.p99, l?.max, drained));
  console.log(
    table(['requests', 'req/s', 'p50', 'p90', 'p99', 'max', 'non-2xx', '5xx', 'lag p50', 'lag p99', 'lag max', 'drained'], [row]),
  );
  for (const e of extra) console.log(`  ${e}`);
  const cpu = CPU_COLUMNS.filter((k) => r.costs.cpuMsPerRequest[k] !== undefined).map((k) => `${k} ${fmt(r.costs.cpuMsPerRequest[k])}`);
  console.log(`  CPU ms/req: ${cpu.join(', ')}; commits/req ${fmt(r.costs.commitsPerRequest)}`);
  for (const b of load.non2xxSamples.slice(0, 3)) console.log(`  non-2xx: ${b}`);
}

/** Issue #27's figure: CPU per withdrawal over its whole life, every process of the full stack, over the open loop's window. */
function printWholeLife(r: PhaseResult): void {
  const per = r.costs.cpuMsPerRequest;
  const parts = [...APPS, 'payouts', 'kafka', 'postgres'].filter((k) => per[k] !== undefined);
  const total = h.round(parts.reduce((n, k) => n + per[k], 0));
  console.log(`  WHOLE-LIFE CPU ms per withdrawal (open loop): ${parts.map((k) => `${k} ${fmt(per[k])}`).join(', ')}; TOTAL ${fmt(total)}`);
  console.log(`    not in the total: baseline process (idle) ${fmt(per.baseline)}, generator ${fmt(per.bench)}`);
}

function printLatency(r: OpenRun): void {
  const b = p.LATENCY_BUCKETS_MS;
  const bounds = b.map((x, i) => `${i === 0 ? 0 : b[i - 1]}-${x}`).concat(`>${b.at(-1)}`);
  const d = r.load.latencyMs;
  console.log(
    `  LATENCY DISTRIBUTION (POST, ms): p50 ${fmt(d?.p50)}, p90 ${fmt(d?.p90)}, p95 ${fmt(d?.p95)}, p99 ${fmt(d?.p99)}, p99.9 ${fmt(d?.p999)}`,
  );
  console.log(`    answers per bucket: ${bounds.map((x, i) => `${x} ms ${r.histogram[i]}`).join(', ')}`);
  const rows = Object.entries(r.costs.gc).map(([name, gc]) => [name, fmt(gc?.msPerSecond), gc ? String(gc.over10ms) : '-']);
  console.log(table(['process', 'GC ms/s', 'GCs > 10 ms'], rows));
}

function printMemory(m: p.MemoryUnderLoad, heap: Record<string, p.HeapSplit | null>, pss: Record<string, number | null>): void {
  console.log(
    `\nMEMORY  the apps' RSS while the full stack took POSTs (every ${underLoad.everyMs} ms, ${m.samples} samples); heap and PSS after the bench, MB`,
  );
  const mb = (n: number | null | undefined) => (n === null || n === undefined ? '-' : String(Math.round(n)));
  const rows = [...APPS, ...(heap.payouts === undefined ? [] : ['payouts' as const])].map((app) => {
    const [a, x] = [m.perApp[app], heap[app]];
    return [app, mb(a?.median), mb(a?.peak), x ? `${x.heapUsed} / ${x.heapTotal}` : '-', mb(x?.external), mb(pss[app])];
  });
  const all = payoutWorker ? 'six apps and the payout worker' : 'six apps';
  rows.push([all, mb(m.sum?.median), mb(m.sum?.peak), '', '', mb([...APPS, 'payouts'].reduce((n, app) => n + (pss[app] ?? 0), 0))]);
  console.log(table(['app', 'RSS median', 'RSS peak', 'heap used / total', 'external', 'PSS'], rows));
  if (!m.sum) return console.log(`  goal ≤ ${MEMORY_GOAL_MB} MB: not measured (no full-stack run)`);
  const over = m.sum.peak - MEMORY_GOAL_MB;
  console.log(
    `  ${all} under load: peak ${mb(m.sum.peak)} MB, median ${mb(m.sum.median)} MB; goal ≤ ${MEMORY_GOAL_MB} MB: ` +
      (over <= 0 ? `MET (peak ${mb(-over)} MB under)` : `MISSED (peak ${mb(over)} MB over)`),
  );
}

/** A run as results.json keeps it: without the raw latencies and ids. */
const withoutRaw = <R extends { load: LoadResult }>({ load: { latencies: _l, ids: _i, ...load }, ...rest }: R) => ({ ...rest, load });

// ---------------------------------------------------------------------------------------- main
async function main(): Promise<void> {
  const o = parseOptions();
  const timings: Record<string, number> = {};
  const time = <T>(name: string, f: () => T | Promise<T>) => h.timed(timings, name, f);
  const environment = h.machine();
  console.log(
    `withdrawals bench: node ${environment.node}, ${environment.cpus} cpus (${environment.cpuModel}), load ${environment.loadavgAtStart.join(' ')}`,
  );
  console.log(
    `  runs ${o.runs.join(',')}; ${o.requests} requests per pass at concurrency ${o.concurrency.join(', ')}; open loop ${o.openSeconds} s; warm-up ${o.warmup}`,
  );

  const db = new p.BenchDatabase(AT.databaseUrl, CHAIN);
  const results: Record<string, unknown> = {};
  try {
    // Only the withdrawals app reads PAYOUTS_ENABLED: with --payouts-apart its stack instance takes the requests only.
    const env = { REQUEST_TIMEOUT_MS: '10000', ...(o.payoutsApart ? { PAYOUTS_ENABLED: 'false' } : {}) };
    const run = await bench.stack(AT, { build: o.build, blockTimeMs: TEST_BLOCK_TIME_MS, chainTimings: TEST_CHAIN_TIMINGS, env }, timings);
    const [s, stackOptions, adminKey] = [(stack = run.stack), run.options, run.admin];
    await time('baselineReadyMs', () => startBaseline(stackOptions));
    if (o.payoutsApart) await time('payoutWorkerReadyMs', () => startPayoutWorker(stackOptions));
    console.log(`payouts: ${o.payoutsApart ? 'a worker of their own (PAYOUTS_ONLY)' : "in the withdrawals service's process"}`);
    await db.connect();
    console.log(
      `kafka start ${secs(timings.kafkaStartMs)}, database ${secs(timings.databaseRecreateMs)}, migrate ${secs(timings.migrateMs)}` +
        `${o.build ? `, build ${secs(timings.buildMs)}` : ', build skipped'}, stack ready ${secs(timings.stackReadyMs)}, baseline ready ${secs(timings.baselineReadyMs)}`,
    );
    if (db.statementsNote) console.log(`note: ${db.statementsNote}`);

    const maxConcurrency = Math.max(...o.concurrency, HOT_CONCURRENCY);
    // Partners × users at least twice the concurrency: requests in flight are not consecutive indices, and
    // with P×U = c two of one user met often enough to serialize on its account row (docs/benchmarks/the-benches.md, "The runs").
    const usersPerPartner = Math.max(o.users, Math.ceil((2 * maxConcurrency) / o.partners));
    const partners = await time('setupMs', () =>
      Promise.all(Array.from({ length: o.partners }, (_, i) => h.sandboxPartner(s.gatewayUrl, adminKey, `bench #${i}`, usersPerPartner))),
    );
    const urls: Record<StackName, string> = { full: s.gatewayUrl, baseline: `http://127.0.0.1:${BASELINE_PORT}` };

    if (o.warmup > 0) {
      // JIT, pools, the broker's first produce; then a share at the lowest measured concurrency, whose paths a concurrent load does not run.
      const warm: Record<string, unknown> = {};
      const lowest = Math.min(...o.concurrency);
      for (const n of ['full', 'baseline'] as const) {
        const r = await h.closedLoop(o.warmup, Math.min(16, maxConcurrency), spread(urls[n], partners), stopped);
        const low = lowest < 16 ? await h.closedLoop(Math.ceil(o.warmup / 2), lowest, spread(urls[n], partners), stopped) : null;
        await db.waitFinished([...r.ids, ...(low?.ids ?? [])], DRAIN_TIMEOUT_MS, o.pollMs, stopped);
        warm[n] = {
          throughput: r.throughput,
          statusCounts: r.statusCounts,
          ...(low ? { lowConcurrency: lowest, lowThroughput: low.throughput } : {}),
        };
      }
      results.warmup = warm;
      console.log(
        `warm-up: ${o.warmup} requests on each stack (then half as many at the lowest measured concurrency), ${JSON.stringify(warm)}`,
      );
    }

    let closed: ClosedLevel[] = [];
    if (o.runs.includes('closed') && !stopped()) {
      console.log('\nclosed loop, A-B-B-A per level:');
      closed = await runClosed(db, urls, partners, o);
      results.closed = closed.map((l) => ({ ...l, passes: l.passes.map(withoutRaw) }));
    }
    const [full, base] = closed.length > 0 ? [peak(closed, 'full'), peak(closed, 'baseline')] : [];
    const pk = full && base ? { full, baseline: base, ratio: h.round(full.throughput / base.throughput, 3) } : null;
    if (pk) results.peak = pk;

    let sustained: Awaited<ReturnType<typeof runSustained>> | undefined;
    if (o.runs.includes('sustained') && !stopped()) {
      // Without a closed run, the ceiling is twice the asked open rate (or 1,000 req/s).
      const ceiling = pk?.full.throughput ?? (o.openRate === undefined ? 1000 : o.openRate * 2);
      console.log(`\nsustained: the highest open-loop rate the stack keeps up with, halving between 0 and ${fmt(ceiling)} req/s`);
      results.sustained = sustained = await runSustained(db, urls.full, partners, ceiling, o);
    }

    // Open rates: as asked, else each --open-share of the sustained rate, else of the closed-loop peak (20 req/s without either).
    const basis = sustained?.rate
      ? { rate: sustained.rate, name: 'sustained rate' }
      : pk
        ? { rate: pk.full.throughput, name: 'closed-loop peak' }
        : null;
    const openRates =
      o.openRate !== undefined
        ? [{ rate: o.openRate, why: 'as asked' }]
        : basis
          ? o.openShare.map((share) => ({
              rate: Math.max(1, h.round(basis.rate * share, 1)),
              why: `${Math.round(share * 100)} % of the ${basis.name}, ${fmt(basis.rate)} req/s`,
            }))
          : [{ rate: 20, why: 'no closed or sustained run: default 20 req/s' }];
    const opens: OpenRun[] = [];
    for (const { rate, why } of o.runs.includes('open') ? openRates : []) {
      if (stopped()) break;
      console.log(`\nopen loop: ${rate} req/s for ${o.openSeconds} s on the full stack (${why})`);
      opens.push(await runOpen(db, urls.full, partners, rate, o));
    }
    if (opens.length > 0) [results.open, results.opens] = [withoutRaw(opens[0]), opens.map(withoutRaw)];

    let hot: PhaseResult | undefined;
    if (o.runs.includes('hot') && !stopped()) {
      console.log(`\nhot account: ${o.requests} requests, one user of one partner, c=${HOT_CONCURRENCY}, full stack`);
      const api = new LoadClient(urls.full, partners[0].key);
      const one = (_i: number, since: number) => h.postWithdrawal(api, partners[0].users[0], since);
      results.hot = withoutRaw((hot = await measure(db, () => h.closedLoop(o.requests, HOT_CONCURRENCY, one, stopped), o.pollMs, true)));
    }
    const feedContext: FeedBenchOptions = { gatewayUrl: urls.full, databaseUrl: AT.databaseUrl, adminKey };
    if (o.runs.includes('feed') && !stopped()) {
      console.log('\nfeed run (scripts/bench/feed.bench.ts)');
      results.feed = await runFeedBench(feedContext);
    }
    let feedLoad: { feed: FeedBenchResult; open: OpenRun } | undefined;
    if (o.runs.includes('feed-load') && !stopped()) {
      // Issue #27 item 3: the feed's p99 while money flows; the open loop starts once the feed is seeded and outlasts its run.
      const rate = openRates[0].rate;
      const seconds = Math.max(5, o.openSeconds - 8);
      console.log(
        `\nfeed run while withdrawals arrive at ${rate} req/s (open loop, ${o.openSeconds} s; the feed measured ${seconds} s of it)`,
      );
      let loop: Promise<OpenRun> | undefined;
      const feed = await runFeedBench({
        ...feedContext,
        seconds,
        // Its own 3 s and the loop's unmeasured warm-up: the feed is measured inside the loop's measured window.
        warmupSeconds: 3 + o.openWarmup,
        ...(o.feedRate === undefined ? {} : { rate: o.feedRate }),
        onSeeded: () => void (loop = runOpen(db, urls.full, partners, rate, o)),
      });
      feedLoad = loop && { feed, open: await loop };
      if (feedLoad) results.feedUnderLoad = { feed, withdrawals: withoutRaw(feedLoad.open) };
    }
    assertAlive();

    // Memory and event-loop lag are per process, not per run.
    const rss: Record<string, number | null> = {
      ...Object.fromEntries([...processes()].map(([n, c]) => [n, p.rssMb(c.pid)])),
      kafka: p.rssMb(brokerPid()),
    };
    const heap: Record<string, p.HeapSplit | null> = {};
    const pss: Record<string, number | null> = {};
    for (const [name, c] of processes()) [heap[name], pss[name]] = [await p.heapSplitMb(metricsUrl(name)), p.pssMb(c.pid)];
    const memory = underLoad.summary();
    results.rssMbAfter = rss;
    results.memory = { goalMb: MEMORY_GOAL_MB, underLoad: memory, heapMbAfter: heap, pssMbAfter: pss };

    if (stopped()) return;
    if (pk) {
      printClosed(closed);
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
      const rows = sustained.probes.map((x) => {
        const [drained, kept] = [x.drainMs === null ? '-' : (x.drainMs ?? 0) / 1000, x.keptUp ? 'yes' : 'no'];
        return cells(x.rate, kept, x.throughput, x.p99, String(x.outboxEnd), String(x.chainDueEnd), drained, x.why);
      });
      console.log(table(['rate', 'kept up', 'answered req/s', 'POST p99 ms', 'outbox end', 'chain due end', 'drained s', 'why'], rows));
    }
    for (const open of opens) {
      const [b, ol] = [open.backlog, open.load];
      printPhase(`OPEN LOOP  ${ol.ratePerSecond} req/s for ${o.openSeconds} s, full stack (latency from the scheduled send)`, open, [
        `outbox backlog (rows, all services): start ${b.outbox.start}, max ${b.outbox.max}, end ${b.outbox.end}; chain backlog (due, not moved): start ${b.chainDue.start}, max ${b.chainDue.max}, end ${b.chainDue.end}; ${b.samples} samples`,
        `generator: max ${ol.maxInFlight} in flight, sent at most ${fmt(ol.maxSendDelayMs)} ms late`,
      ]);
      printWholeLife(open);
      printLatency(open);
    }
    if (hot) printPhase(`HOT ACCOUNT  one user, c=${HOT_CONCURRENCY}, full stack`, hot);
    if (feedLoad) {
      const [ol, f] = [feedLoad.open.load, feedLoad.feed];
      printPhase(`WITHDRAWALS DURING THE FEED RUN  ${ol.ratePerSecond} req/s for ${o.openSeconds} s, full stack`, feedLoad.open);
      console.log(
        `  FEED WHILE MONEY FLOWS  ${f.requests} reads ${f.rate === null ? `of ${f.connections} connections (closed loop)` : `at ${f.rate}/s on a schedule`} in ${f.seconds} s, ${fmt(f.throughput)} req/s: p50 ${fmt(f.latencyMs?.p50)} p99 ${fmt(f.latencyMs?.p99)} ms (goal p99 ≤ 20 ms: ${(f.latencyMs?.p99 ?? Infinity) <= 20 ? 'met' : 'MISSED'})`,
      );
    }
    const loopRows = [...processes().keys()].map((n) => {
      const all = [...closed.flatMap((l) => l.passes), ...opens, ...(hot ? [hot] : [])]
        .map((x) => x.costs.eventLoopP99Ms[n])
        .filter((v): v is number => typeof v === 'number');
      return [n, fmt(rss[n]), all.length ? fmt(Math.max(...all)) : '-'];
    });
    console.log('\nPROCESSES  RSS after the bench; event-loop lag p99 = worst over the measured runs');
    console.log(table(['process', 'RSS MB', 'loop p99 ms'], [...loopRows, ['kafka', fmt(rss.kafka), '-']]));
    printMemory(memory, heap, pss);
    if (db.statementsNote) console.log(`  ${db.statementsNote}`);
    if (results.feed) console.log(`\nFEED  ${JSON.stringify(results.feed)}`);
  } finally {
    const ports = { kafka: AT.kafkaPort, gateway: AT.gatewayPort, baseline: BASELINE_PORT, healthBase: AT.healthPortBase };
    const chain = { ports: AT.chainPorts, blockTimeMs: TEST_BLOCK_TIME_MS, ...TEST_CHAIN_TIMINGS, due: CHAIN };
    const notes = db.statementsNote ? [db.statementsNote] : [];
    h.writeResults('results.json', { environment, options: o, ports, chain, timings, notes, ...results }, AT.logDir);
    await db.end();
  }
}

bench.run(main);
