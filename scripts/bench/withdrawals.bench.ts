/**
 * `npm run bench`: USDT withdrawals through the whole running stack (HTTP → gateway → Kafka
 * request-reply → withdrawals → outbox → Kafka → events → partner feed). Not a test: it prints numbers.
 *
 *   npm run bench                                        2000 requests at concurrency 32
 *   npm run bench -- --requests 500 --concurrency 1,8,32,64
 *
 * Options (flag, or environment variable):
 *   --requests N        BENCH_REQUESTS     measured POSTs per concurrency level (default 2000)
 *   --concurrency C,..  BENCH_CONCURRENCY  one level or a comma-separated list (default 32)
 *   --warmup N          BENCH_WARMUP       unmeasured POSTs before the first level (default 50)
 *   --partners P        BENCH_PARTNERS     minimum partners per level (default 4)
 *   --users U           BENCH_USERS        minimum users per partner (default 8)
 *   --poll-ms MS        BENCH_POLL_MS      pause between two feed polls of one partner (default 50)
 *   --no-build          BENCH_NO_BUILD=1   use the existing dist/ instead of building first
 *
 * It starts a stack of its own (broker on 29092, database partner_bench, gateway on 23000, health ports
 * from 23101, app logs in .cache/bench/logs), so it never meets a dev stack or a test run, and stops it
 * at the end, also on Ctrl-C. Results also go to .cache/bench/results.json. See README.md next to this.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiClient, newCpf, newUuid, VALID_ADDRESS } from '../../libs/testing/src';
import { APPS, AppName, repoRoot } from '../lib/services';
import { kafka, migrate, recreateDatabase, RunningStack, StackOptions, startApp, waitUntilReady } from '../stack/stack';

// ------------------------------------------------------------------------------------ settings
const root = repoRoot();
const KAFKA_PORT = 29092;
const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner_bench';
const GATEWAY_PORT = 23000;
const HEALTH_PORT_BASE = 23100;
const OUT_DIR = join(root, '.cache', 'bench');
const LOG_DIR = join(OUT_DIR, 'logs');
const KAFKA_DATA_DIR = join(root, '.cache', 'kafka', `data-${KAFKA_PORT}`);

const USDT = 1_000_000;
/** Plenty for every withdrawal a user can get in a run: balance is never what is measured. */
const USER_BALANCE_MICROS = 1_000_000 * USDT;
/**
 * The feed lists the oldest undelivered events first, at most 1000 (MAX_EVENTS_PAGE). A withdrawal
 * makes up to 3 events (created, sent, settled) and the bench marks nothing delivered, so one partner
 * gets at most 300 withdrawals: a new `created` event is then always on the first page.
 */
const MAX_WITHDRAWALS_PER_PARTNER = 300;
const FEED_PAGE = 1000;
/** After the last answer: how long to wait for every `created` event, then for every final state. */
const LAG_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 120_000;

interface Options {
  requests: number;
  concurrency: number[];
  warmup: number;
  partners: number;
  users: number;
  pollMs: number;
  build: boolean;
}

function parseOptions(argv: string[]): Options {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (arg === '--no-build' || arg === '--help') flags.set(arg.slice(2), 'true');
    else flags.set(arg.slice(2), argv[++i] ?? '');
  }
  if (flags.has('help')) {
    console.log('usage: npm run bench -- [--requests N] [--concurrency C[,C...]] [--warmup N] [--partners P] [--users U] [--poll-ms MS] [--no-build]');
    process.exit(0);
  }
  const known = ['requests', 'concurrency', 'warmup', 'partners', 'users', 'poll-ms', 'no-build'];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown option --${name}`);
  const get = (flag: string, env: string, fallback: string) => flags.get(flag) ?? process.env[env] ?? fallback;
  const int = (flag: string, env: string, fallback: number, min: number) => {
    const raw = get(flag, env, String(fallback));
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} must be an integer >= ${min}, got ${raw}`);
    return n;
  };
  const concurrency = get('concurrency', 'BENCH_CONCURRENCY', '32')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--concurrency takes positive integers, got ${s}`);
      return n;
    });
  if (concurrency.length === 0) throw new Error('--concurrency needs at least one level');
  return {
    requests: int('requests', 'BENCH_REQUESTS', 2000, 1),
    concurrency,
    warmup: int('warmup', 'BENCH_WARMUP', 50, 0),
    partners: int('partners', 'BENCH_PARTNERS', 4, 1),
    users: int('users', 'BENCH_USERS', 8, 1),
    pollMs: int('poll-ms', 'BENCH_POLL_MS', 50, 0),
    build: !(flags.has('no-build') || process.env.BENCH_NO_BUILD === '1'),
  };
}

// ------------------------------------------------------------------------------------- helpers
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const secs = (n: number) => `${(n / 1000).toFixed(1)} s`;

interface Distribution {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles. */
function distribution(values: number[]): Distribution | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    count: sorted.length,
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** CPU seconds (user+system) a process has used so far, from /proc; null where unavailable. */
function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

function brokerPid(): number | undefined {
  try {
    const pid = Number(readFileSync(join(KAFKA_DATA_DIR, 'kafka.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

type CpuSnapshot = Record<string, number | null>;

function cpuSnapshot(stack: RunningStack): CpuSnapshot {
  const snap: CpuSnapshot = {};
  for (const [app, p] of stack.processes) snap[app] = cpuSeconds(p.pid);
  snap.kafka = cpuSeconds(brokerPid());
  const own = process.cpuUsage();
  snap.bench = (own.user + own.system) / 1e6;
  return snap;
}

function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(after)) {
    const a = after[key];
    const b = before[key];
    if (a !== null && b !== null && b !== undefined) out[key] = Math.round((a - b) * 100) / 100;
  }
  return out;
}

// ------------------------------------------------------------------------------ stack lifecycle
let stack: RunningStack | undefined;
let kafkaStarted = false;
let cleaning: Promise<void> | undefined;

/** Stops the apps and the broker; safe to call twice (Ctrl-C during the finally block). */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
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
  })();
  return cleaning;
}

let interrupted = false;
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
  stack = new RunningStack(processes, `http://127.0.0.1:${o.gatewayPort}`);
  for (const app of APPS) processes.set(app, startApp(app, o));
  await waitUntilReady(stack, 120_000);
  return stack;
}

function assertAppsAlive(s: RunningStack): void {
  for (const [app, p] of s.processes) {
    if (p.exitCode !== null || p.signalCode !== null) {
      throw new Error(`${app} exited (${p.exitCode ?? p.signalCode}) during the bench; see ${join(LOG_DIR, `${app}.log`)}`);
    }
  }
}

// ------------------------------------------------------------------------------------ workload
interface BenchPartner {
  index: number;
  api: ApiClient;
  users: string[];
}

async function createPartners(admin: ApiClient, label: string, partners: number, usersPerPartner: number): Promise<BenchPartner[]> {
  return Promise.all(
    Array.from({ length: partners }, async (_, index) => {
      const res = await admin.post<{ api_key: string }>('/sandbox/v1/partners', { name: `bench ${label} #${index}` });
      if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      const api = new ApiClient(admin.baseUrl, { 'x-api-key': res.body.api_key });
      const users: string[] = [];
      for (let u = 0; u < usersPerPartner; u++) {
        const document = newCpf();
        const created = await api.post('/sandbox/v1/users', { document, usdt_micros: USER_BALANCE_MICROS });
        if (created.status !== 201) throw new Error(`user creation failed: ${created.status} ${JSON.stringify(created.body)}`);
        users.push(document);
      }
      return { index, api, users };
    }),
  );
}

interface FeedEvent {
  type: string;
  state: string;
  resource_id: string;
}

/**
 * One per partner: lists the partner's undelivered events every `pollMs` (one request in flight at a
 * time) and records when each withdrawal's `created` event was first seen (the time the listing
 * answered), and which withdrawals reached a final state.
 */
class FeedPoller {
  readonly createdSeenAt = new Map<string, number>();
  readonly finished = new Set<string>();
  polls = 0;
  pollMsTotal = 0;
  eventsTotal = 0;
  maxPage = 0;
  errors = new Map<string, number>();
  private stopped = false;
  private loop?: Promise<void>;

  constructor(private readonly api: ApiClient, private readonly pollMs: number) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const t0 = performance.now();
      try {
        const res = await this.api.get<{ events: FeedEvent[] }>(`/partner/v1/events?delivered=false&limit=${FEED_PAGE}`);
        const t1 = performance.now();
        if (res.status !== 200) {
          const key = `HTTP ${res.status}`;
          this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
        } else {
          const events = res.body.events;
          this.polls++;
          this.pollMsTotal += t1 - t0;
          this.eventsTotal += events.length;
          this.maxPage = Math.max(this.maxPage, events.length);
          for (const e of events) {
            if (e.type !== 'usdt_withdrawal') continue;
            if (e.state === 'created' && !this.createdSeenAt.has(e.resource_id)) this.createdSeenAt.set(e.resource_id, t1);
            if (e.state === 'settled' || e.state === 'failed') this.finished.add(e.resource_id);
          }
        }
      } catch (error) {
        const key = (error as Error).name || 'Error';
        this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
      }
      if (!this.stopped) await sleep(this.pollMs);
    }
  }
}

interface LevelResult {
  concurrency: number;
  requests: number;
  partners: number;
  usersPerPartner: number;
  durationMs: number;
  throughput: number;
  statusCounts: Record<string, number>;
  latencyMs: Distribution | null;
  lagMs: Distribution | null;
  lagMissing: number;
  /** `created` events listed before the client had the POST's answer (counted as lag 0). */
  seenBeforeAnswer: number;
  /** From the last answer until every withdrawal of the level had settled (or failed) in the feed. */
  settleMs: number | null;
  unsettled: number;
  polls: { count: number; meanMs: number; meanEvents: number; maxEvents: number; errors: Record<string, number> };
  cpuSeconds: Record<string, number>;
  nonCreatedBodies: string[];
}

async function runLevel(
  s: RunningStack,
  admin: ApiClient,
  label: string,
  requests: number,
  concurrency: number,
  o: Options,
): Promise<LevelResult> {
  assertAppsAlive(s);
  const partnerCount = Math.max(o.partners, Math.ceil(requests / MAX_WITHDRAWALS_PER_PARTNER));
  const usersPerPartner = Math.max(o.users, Math.ceil(concurrency / partnerCount));
  const partners = await createPartners(admin, label, partnerCount, usersPerPartner);
  const pollers = partners.map((p) => new FeedPoller(p.api, o.pollMs));
  pollers.forEach((p) => p.start());

  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const nonCreatedBodies: string[] = [];
  /** partner index → withdrawal id → when the 201 arrived */
  const answeredAt: Map<string, number>[] = partners.map(() => new Map());
  let next = 0;
  let lastAnswer = 0;

  const cpuBefore = cpuSnapshot(s);
  const started = performance.now();
  const worker = async () => {
    while (!interrupted) {
      const i = next++;
      if (i >= requests) return;
      const partner = partners[i % partnerCount];
      const document = partner.users[Math.floor(i / partnerCount) % usersPerPartner];
      const body = { document, idempotency_key: newUuid(), address: VALID_ADDRESS, usdtmicros: USDT, fee_choice: 'MEDIUM', network: 'MATIC' };
      const t0 = performance.now();
      let status: string;
      try {
        const res = await partner.api.post<{ id: number }>('/partner/v1/withdrawals/usdt', body);
        const t1 = performance.now();
        latencies.push(t1 - t0);
        lastAnswer = Math.max(lastAnswer, t1);
        status = String(res.status);
        if (res.status === 201) answeredAt[partner.index].set(String(res.body.id), t1);
        else if (nonCreatedBodies.length < 20) nonCreatedBodies.push(`${res.status} ${JSON.stringify(res.body)}`.slice(0, 300));
      } catch (error) {
        lastAnswer = Math.max(lastAnswer, performance.now());
        status = `error:${(error as Error).name}`;
        if (nonCreatedBodies.length < 20) nonCreatedBodies.push(`${status} ${(error as Error).message}`.slice(0, 300));
      }
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const durationMs = (lastAnswer || performance.now()) - started;
  const cpuAfter = cpuSnapshot(s);

  // Every `created` event in the feed, then every withdrawal in a final state (so that the chain's
  // sent/settled work does not spill into the next level).
  const allSeen = () => answeredAt.every((ids, p) => [...ids.keys()].every((id) => pollers[p].createdSeenAt.has(id)));
  const allFinished = () => answeredAt.every((ids, p) => [...ids.keys()].every((id) => pollers[p].finished.has(id)));
  const waitFor = async (done: () => boolean, timeoutMs: number) => {
    const until = performance.now() + timeoutMs;
    while (!done() && !interrupted && performance.now() < until) await sleep(50);
    return done();
  };
  await waitFor(allSeen, LAG_TIMEOUT_MS);
  const settled = await waitFor(allFinished, SETTLE_TIMEOUT_MS);
  const settleMs = settled ? performance.now() - (lastAnswer || started) : null;
  await Promise.all(pollers.map((p) => p.stop()));

  const lags: number[] = [];
  let lagMissing = 0;
  let seenBeforeAnswer = 0;
  answeredAt.forEach((ids, p) => {
    for (const [id, answered] of ids) {
      const seen = pollers[p].createdSeenAt.get(id);
      if (seen === undefined) lagMissing++;
      else {
        if (seen < answered) seenBeforeAnswer++;
        lags.push(Math.max(0, seen - answered));
      }
    }
  });
  const unsettled = answeredAt.reduce((n, ids, p) => n + [...ids.keys()].filter((id) => !pollers[p].finished.has(id)).length, 0);
  const polls = pollers.reduce((n, p) => n + p.polls, 0);
  const pollErrors: Record<string, number> = {};
  for (const p of pollers) for (const [k, v] of p.errors) pollErrors[k] = (pollErrors[k] ?? 0) + v;

  return {
    concurrency,
    requests,
    partners: partnerCount,
    usersPerPartner,
    durationMs: Math.round(durationMs),
    throughput: Math.round((requests / (durationMs / 1000)) * 10) / 10,
    statusCounts,
    latencyMs: distribution(latencies),
    lagMs: distribution(lags),
    lagMissing,
    seenBeforeAnswer,
    settleMs: settleMs === null ? null : Math.round(settleMs),
    unsettled,
    polls: {
      count: polls,
      meanMs: polls ? Math.round((pollers.reduce((n, p) => n + p.pollMsTotal, 0) / polls) * 10) / 10 : 0,
      meanEvents: polls ? Math.round(pollers.reduce((n, p) => n + p.eventsTotal, 0) / polls) : 0,
      maxEvents: Math.max(0, ...pollers.map((p) => p.maxPage)),
      errors: pollErrors,
    },
    cpuSeconds: cpuDelta(cpuBefore, cpuAfter),
    nonCreatedBodies,
  };
}

// -------------------------------------------------------------------------------------- output
function printLevel(r: LevelResult): void {
  const statuses = Object.entries(r.statusCounts)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
  const bad = Object.entries(r.statusCounts).filter(([k]) => k !== '201');
  const row = (name: string, d: Distribution | null) =>
    d
      ? `  ${name.padEnd(24)}${[d.p50, d.p95, d.p99, d.max, d.mean].map((n) => ms(n).padStart(9)).join('')}`
      : `  ${name.padEnd(24)}      (no samples)`;
  const cpu = Object.entries(r.cpuSeconds)
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');
  console.log(`
concurrency ${r.concurrency}: ${r.requests} requests, ${r.partners} partners x ${r.usersPerPartner} users
  throughput              ${r.throughput.toFixed(1)} req/s (${secs(r.durationMs)})
  status codes            ${statuses}${bad.length ? '   <-- NOT ALL 201' : ''}
  ${''.padEnd(24)}${['p50', 'p95', 'p99', 'max', 'mean'].map((h) => h.padStart(9)).join('')}
${row('POST latency (ms)', r.latencyMs)}
${row('201 -> feed lag (ms)', r.lagMs)}
  lag samples             ${r.lagMs?.count ?? 0} seen, ${r.lagMissing} never seen${r.seenBeforeAnswer ? `, ${r.seenBeforeAnswer} listed before their 201` : ''}
  feed polls              ${r.polls.count} (mean ${r.polls.meanMs} ms, mean ${r.polls.meanEvents} / max ${r.polls.maxEvents} events per page)${Object.keys(r.polls.errors).length ? ` errors ${JSON.stringify(r.polls.errors)}` : ''}
  chain drained           ${r.settleMs === null ? `NOT within ${SETTLE_TIMEOUT_MS / 1000} s (${r.unsettled} unsettled)` : `all settled ${secs(r.settleMs)} after the last answer`}
  CPU s during the POSTs  ${cpu}`);
  for (const b of r.nonCreatedBodies.slice(0, 5)) console.log(`  non-201: ${b}`);
}

function printSummary(levels: LevelResult[]): void {
  const head = ['conc', 'req/s', 'p50', 'p95', 'p99', 'max', 'lag p50', 'lag p95', 'lag p99', 'lag max', 'non-201'];
  const widths = [6, 9, 8, 8, 8, 8, 9, 9, 9, 9, 8];
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join(' ');
  console.log('\nsummary (latencies in ms; compare ratios within one run, the machine is noisy)');
  console.log(line(head));
  for (const r of levels) {
    const l = r.latencyMs;
    const g = r.lagMs;
    const non201 = Object.entries(r.statusCounts).reduce((n, [k, v]) => (k === '201' ? n : n + v), 0);
    console.log(
      line([
        String(r.concurrency),
        r.throughput.toFixed(1),
        ...(l ? [l.p50, l.p95, l.p99, l.max].map(ms) : ['-', '-', '-', '-']),
        ...(g ? [g.p50, g.p95, g.p99, g.max].map(ms) : ['-', '-', '-', '-']),
        String(non201),
      ]),
    );
  }
  const best = levels.reduce((a, b) => (b.throughput > a.throughput ? b : a));
  const base = levels[0];
  const ratio = levels.length > 1 ? ` (${(best.throughput / base.throughput).toFixed(2)}x concurrency ${base.concurrency})` : '';
  console.log(`\nbest throughput: ${best.throughput.toFixed(1)} req/s at concurrency ${best.concurrency}${ratio}`);
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
    `withdrawals bench: node ${environment.node}, ${environment.cpus} cpus (${environment.cpuModel}), ${environment.memoryGiB} GiB, load ${environment.loadavgAtStart.join(' ')}`,
  );
  console.log(
    `  ${o.requests} requests per level at concurrency ${o.concurrency.join(', ')}; warm-up ${o.warmup}; feed polled every ${o.pollMs} ms per partner`,
  );

  const levels: LevelResult[] = [];
  try {
    // A broker of the bench's own, emptied first like the test run's.
    try {
      kafka('stop', KAFKA_PORT);
    } catch {
      /* not running */
    }
    rmSync(KAFKA_DATA_DIR, { recursive: true, force: true });
    kafkaStarted = true;
    await time('kafkaStartMs', () => kafka('start', KAFKA_PORT));
    await time('databaseRecreateMs', () => recreateDatabase(DATABASE_URL));
    await time('migrateMs', () => migrate(DATABASE_URL));
    if (o.build) {
      await time('buildMs', () => execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/build.ts')], { stdio: 'inherit' }));
    }
    for (const app of APPS) rmSync(join(LOG_DIR, `${app}.log`), { force: true });
    const s = await time('stackReadyMs', () =>
      startBenchApps({
        kafkaPort: KAFKA_PORT,
        databaseUrl: DATABASE_URL,
        gatewayPort: GATEWAY_PORT,
        healthPortBase: HEALTH_PORT_BASE,
        logDir: LOG_DIR,
        env: {
          SANDBOX: 'true',
          ADMIN_API_KEY: adminKey,
          LOG_LEVEL: 'warn',
          CHAIN_SEND_DELAY_MS: '2000',
          CHAIN_SETTLE_DELAY_MS: '5000',
          REQUEST_TIMEOUT_MS: '10000',
          // The bench measures the stack, not the per-partner rate limit.
          RATE_LIMIT_PER_SECOND: '100000',
          RATE_LIMIT_BURST: '100000',
        },
      }),
    );
    console.log(
      `\nkafka start ${secs(timings.kafkaStartMs)}, database ${secs(timings.databaseRecreateMs)}, migrate ${secs(timings.migrateMs)}` +
        `${o.build ? `, build ${secs(timings.buildMs)}` : ', build skipped'}, stack ready ${secs(timings.stackReadyMs)} after spawning the apps`,
    );

    const admin = new ApiClient(s.gatewayUrl, { 'x-admin-key': adminKey });
    let warmup: LevelResult | undefined;
    if (o.warmup > 0 && !interrupted) {
      warmup = await runLevel(s, admin, 'warm-up', o.warmup, Math.min(16, Math.max(...o.concurrency)), o);
      if (interrupted) return;
      console.log(
        `warm-up: ${o.warmup} requests, ${warmup.throughput.toFixed(1)} req/s, status ${JSON.stringify(warmup.statusCounts)} (not measured)`,
      );
    }
    for (const c of o.concurrency) {
      if (interrupted) break;
      const r = await runLevel(s, admin, `c${c}`, o.requests, c, o);
      if (interrupted) break; // a level cut short by Ctrl-C measures the shutdown, not the stack
      levels.push(r);
      printLevel(r);
    }
    assertAppsAlive(s);
    if (levels.length > 0 && !interrupted) printSummary(levels);

    const resultFile = join(OUT_DIR, 'results.json');
    writeFileSync(
      resultFile,
      `${JSON.stringify({ environment, options: o, ports: { kafka: KAFKA_PORT, gateway: GATEWAY_PORT, healthBase: HEALTH_PORT_BASE }, timings, warmup, levels }, null, 2)}\n`,
    );
    console.log(`results: ${resultFile}; app logs: ${LOG_DIR}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(interrupted ? 130 : 0),
  async (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.stack : error}`);
    await cleanup();
    process.exit(1);
  },
);
