/**
 * What every bench shares: flags (node:util parseArgs, an environment fallback), figures (nearest-rank
 * percentiles, tables), the load generators and a stack of its own, stopped at the end and on Ctrl-C.
 * What each bench measures and why: docs/benchmarks/the-benches.md.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { DEV_DICT_TIMINGS, startStackDict } from '@partner/dict-test-server';
import { DEV_SINKS, sinkAppEnv, startSinks } from '@partner/notification-sinks';
import { ApiClient, newCpf, newUuid, VALID_ADDRESS } from '@partner/testing';
import { chainAppEnv, LocalChainTimings } from '../chain/chain-env';
import { ChainPorts, ensureHotWalletKey, ensureLocalChains, stopLocalChains } from '../chain/local-chains';
import { APPS, AppName, healthPortOf, repoRoot } from '../lib/services';
import { buildWorkspace } from '../lib/build-stamp';
import { setUpLocalBus } from '../stack/bus';
import {
  freshKafka,
  kafka,
  migrate,
  recreateDatabase,
  RunningStack,
  StackOptions,
  startApp,
  stopProcess,
  waitUntilReady,
} from '../stack/stack';

export const root = repoRoot();
export const OUT_DIR = join(root, '.cache', 'bench');
export const USDT = 1_000_000;
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const adminKey = () => `adm_bench_${randomBytes(18).toString('base64url')}`;

/** Runs `f`, its wall time in ms into `into[name]`. */
export async function timed<T>(into: Record<string, number>, name: string, f: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await f();
  into[name] = Math.round(performance.now() - t0);
  return result;
}

/** `tick` now (awaited), then `ms` after each one ends until `stop()`, which waits only for a tick under way. */
export async function every(ms: number, tick: () => unknown) {
  let [running, wake] = [true, (): void => undefined];
  await tick();
  const loop = (async () => {
    while (running) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (running) await tick();
    }
  })();
  return { stop: () => ((running = false), wake(), loop) };
}

// ------------------------------------------------------------------------------------ flags
interface Flag<T> {
  type: 'string' | 'boolean';
  env?: string;
  /** What `--help` shows after the flag's name. */
  hint: string;
  parse(raw: string | undefined, name: string): T;
}
type Camel<S> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type Values<S> = { [K in keyof S as Camel<K>]: S[K] extends Flag<infer T> ? T : never };

/** A number flag's value, at least `min` (an integer unless `integer` is false). */
export function num(name: string, raw: string, min = 0, integer = true): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${raw}`);
  return n;
}
export const list = (raw: string) => raw.split(',').flatMap((s) => (s.trim() ? [s.trim()] : []));

export const flag = (env?: string): Flag<boolean> => ({ type: 'boolean', env, hint: '', parse: (raw) => raw === 'true' || raw === '1' });
export const text = <D extends string | undefined>(fallback: D, env?: string, hint = 'VALUE'): Flag<string | D> => ({
  type: 'string',
  env,
  hint: `${hint}${fallback === undefined ? '' : ` (${fallback})`}`,
  parse: (raw) => raw ?? fallback,
});
/** A number of at least `min`; `integer` false for rates and shares. */
export const number = <D extends number | undefined>(fallback: D, min = 0, env?: string, integer = true): Flag<number | D> => ({
  type: 'string',
  env,
  hint: `N${fallback === undefined ? '' : ` (${fallback})`}`,
  parse: (raw, name) => (raw === undefined ? fallback : num(name, raw, min, integer)),
});
/** A comma-separated list of numbers, at least one, each at least `min`. */
export const numbers = (fallback: string, min: number, env?: string, integer = true): Flag<number[]> => ({
  type: 'string',
  env,
  hint: `N[,N...] (${fallback})`,
  parse: (raw, name) => {
    const values = list(raw ?? fallback).map((x) => num(name, x, min, integer));
    if (values.length === 0) throw new Error(`--${name} needs at least one value`);
    return values;
  },
});

/**
 * The command line read by node:util parseArgs (unknown flags refused), each flag's environment variable when
 * not given; `--help` prints `command` and the flags with their defaults and variables.
 */
export function cli<S extends Record<string, Flag<unknown>>>(command: string, spec: S, argv = process.argv.slice(2)): Values<S> {
  const options = Object.fromEntries(Object.entries(spec).map(([k, f]) => [k, { type: f.type }]));
  const { values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, strict: true });
  if (values.help) {
    const lines = Object.entries(spec).map(([k, f]) => ['  --' + k, f.hint, f.env && `[${f.env}]`].filter(Boolean).join(' '));
    console.log([`usage: ${command}`, ...lines].join('\n'));
    process.exit(0);
  }
  const given = values as Record<string, string | boolean | undefined>;
  const camel = (k: string) => k.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
  const read = (k: string, f: Flag<unknown>) => {
    const raw = given[k] ?? (f.env === undefined ? undefined : process.env[f.env]);
    return f.parse(raw === undefined ? undefined : String(raw), k);
  };
  return Object.fromEntries(Object.entries(spec).map(([k, f]) => [camel(k), read(k, f)])) as Values<S>;
}

// ------------------------------------------------------------------------------------ figures
export type Distribution = Record<'count' | 'mean' | 'p50' | 'p90' | 'p95' | 'p99' | 'p999' | 'max', number>;

/** Nearest-rank percentiles, rounded to `digits`. */
export function distribution(values: number[], digits = 2): Distribution | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))], digits);
  const mean = round(sorted.reduce((a, b) => a + b, 0) / sorted.length, digits);
  return { count: sorted.length, mean, p50: at(50), p90: at(90), p95: at(95), p99: at(99), p999: at(99.9), max: at(100) };
}

export const fmt = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2);

export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)].map((l) => `  ${l}`).join('\n');
}

export function machine() {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadavgAtStart: loadavg().map((n) => round(n)),
    startedAt: new Date().toISOString(),
  };
}

export function writeResults(name: string, data: unknown, logDir?: string): void {
  mkdirSync(OUT_DIR, { recursive: true });
  const file = join(OUT_DIR, name);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`\nresults: ${file}${logDir ? `; app logs: ${logDir}` : ''}`);
}

// ------------------------------------------------------------------------------------ load
/**
 * The load's HTTP client: one undici Pool of keep-alive sockets per origin, no fetch() (it cost the
 * generator twice the CPU per request, taken from the stack it measures; docs/benchmarks/the-benches.md, "The measures").
 * No cap on sockets unless asked: a request in flight never queues in the generator.
 */
export class LoadClient {
  private static readonly pools = new Map<string, Pool>();
  private readonly pool: Pool;
  private readonly headers: Record<string, string>;

  constructor(baseUrl: string, apiKey: string, connections: number | null = null) {
    const key = `${new URL(baseUrl).origin} ${connections}`;
    let pool = LoadClient.pools.get(key);
    if (!pool) LoadClient.pools.set(key, (pool = new Pool(new URL(baseUrl).origin, { connections, keepAliveTimeout: 30_000 })));
    this.pool = pool;
    this.headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  }

  async send(method: 'GET' | 'POST', path: string, body?: object): Promise<{ status: number; text: string }> {
    const res = await this.pool.request({ method, path, headers: this.headers, body: body && JSON.stringify(body) });
    return { status: res.statusCode, text: await res.body.text() };
  }
}

/** One answer of a load: its status (or error), latency, the created id, a sample of what went wrong. */
export type Outcome = { status: string; latency: number; id?: number; sample?: string };
/** A run's answers summed up; `ids` of the withdrawals created, `latencies` raw (to merge passes; left out of results files). */
export type LoadResult = ReturnType<Tally['result']>;

/** POST a withdrawal of `micros` for `document`; its latency counts from `since` (the send, or its scheduled time). */
export async function postWithdrawal(api: LoadClient, document: string, since: number, network = 'MATIC', micros = USDT): Promise<Outcome> {
  const body = { document, idempotency_key: newUuid(), address: VALID_ADDRESS, usdtmicros: micros, fee_choice: 'MEDIUM', network };
  try {
    const res = await api.send('POST', '/partner/v1/withdrawals/usdt', body);
    const latency = performance.now() - since;
    if (res.status === 201) return { status: '201', latency, id: (JSON.parse(res.text) as { id: number }).id };
    return { status: String(res.status), latency, sample: `${res.status} ${res.text}`.slice(0, 300) };
  } catch (error) {
    const status = `error:${(error as Error).name}`;
    return { status, latency: performance.now() - since, sample: `${status} ${(error as Error).message}`.slice(0, 300) };
  }
}

/** The answers of one run; `result` sums them up. */
export class Tally {
  readonly latencies: number[] = [];
  readonly statusCounts: Record<string, number> = {};
  readonly ids: number[] = [];
  readonly samples: string[] = [];
  lastAnswer = 0;

  add(o: Outcome): void {
    this.latencies.push(o.latency);
    this.statusCounts[o.status] = (this.statusCounts[o.status] ?? 0) + 1;
    if (o.id !== undefined) this.ids.push(o.id);
    if (o.sample && this.samples.length < 20) this.samples.push(o.sample);
    this.lastAnswer = Math.max(this.lastAnswer, performance.now());
  }

  result(requests: number, started: number) {
    const durationMs = (this.lastAnswer || performance.now()) - started;
    return {
      requests,
      durationMs: Math.round(durationMs),
      throughput: round(requests / (durationMs / 1000), 1),
      statusCounts: this.statusCounts,
      latencyMs: distribution(this.latencies),
      ids: this.ids,
      non2xxSamples: this.samples,
      latencies: this.latencies,
    };
  }
}

/** `requests` sends (Infinity: until `stopped()`) from `concurrency` workers, each waiting for its answer before the next. */
export async function closedLoop(
  requests: number,
  concurrency: number,
  send: (i: number, since: number) => Promise<Outcome>,
  stopped: () => boolean,
) {
  const tally = new Tally();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < requests && !stopped(); i = next++) tally.add(await send(i, performance.now()));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tally.result(Number.isFinite(requests) ? requests : tally.latencies.length, started);
}

/**
 * Calls `send(i, scheduled)` at `rate` a second until `total` are sent or `stopped()`, each at its scheduled
 * time whether or not earlier ones answered (one sent late keeps its scheduled time: no coordinated omission).
 */
export async function onSchedule(
  rate: number,
  total: number,
  stopped: () => boolean,
  send: (i: number, scheduled: number) => Promise<void>,
) {
  const interval = 1000 / rate;
  const pending: Promise<void>[] = [];
  let maxSendDelayMs = 0;
  const started = performance.now();
  let i = 0;
  while (i < total && !stopped()) {
    const now = performance.now();
    for (; i < total && started + i * interval <= now; i++) {
      maxSendDelayMs = Math.max(maxSendDelayMs, now - (started + i * interval));
      pending.push(send(i, started + i * interval));
    }
    await sleep(Math.max(0, started + i * interval - performance.now()));
  }
  await Promise.all(pending);
  return { sent: i, started, maxSendDelayMs };
}

/** `rate` sends a second for `seconds`, latency from each one's scheduled time. */
export async function openLoop(
  rate: number,
  seconds: number,
  send: (i: number, since: number) => Promise<Outcome>,
  stopped: () => boolean,
) {
  const tally = new Tally();
  let inFlight = 0;
  let maxInFlight = 0;
  const { sent, started, maxSendDelayMs } = await onSchedule(
    rate,
    Math.max(1, Math.round(rate * seconds)),
    stopped,
    async (i, scheduled) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      const outcome = await send(i, scheduled);
      inFlight--;
      tally.add(outcome);
    },
  );
  return { ...tally.result(sent, started), ratePerSecond: rate, maxSendDelayMs: round(maxSendDelayMs, 1), maxInFlight };
}

// ------------------------------------------------------------------------------------ a stack of its own
export type SandboxPartner = Awaited<ReturnType<typeof sandboxPartner>>;

/** The apps' settings for a bench: a sandbox administered with `admin`, quiet logs, a default rate limit far above any load. */
export const sandboxEnv = (admin: string) => ({
  SANDBOX: 'true',
  ADMIN_API_KEY: admin,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
});

/** A sandbox partner with a rate limit far above any load (the limit is not what is measured) and `users` users credited `balance`. */
export async function sandboxPartner(gatewayUrl: string, admin: string, name: string, users = 0, balance = 1_000_000 * USDT) {
  const client = new ApiClient(gatewayUrl, { 'x-admin-key': admin });
  const body = { name, rate_limit_per_second: 1_000_000, rate_limit_burst: 1_000_000 };
  const res = await client.post<{ id: string; api_key: string }>('/sandbox/v1/partners', body);
  if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  const api = new ApiClient(gatewayUrl, { 'x-api-key': res.body.api_key });
  const documents: string[] = [];
  for (let u = 0; u < users; u++) {
    const document = newCpf();
    const created = await api.post('/sandbox/v1/users', { document, usdt_micros: balance });
    if (created.status !== 201) throw new Error(`user creation failed: ${created.status} ${JSON.stringify(created.body)}`);
    documents.push(document);
  }
  return { id: res.body.id, key: res.body.api_key, users: documents };
}

/**
 * Where a bench's stack runs, all its own: broker, database, gateway, health ports and chains, moved by
 * `<env>_KAFKA_PORT`, `_DATABASE_URL`, `_GATEWAY_PORT`, `_HEALTH_PORT_BASE`, `_CHAIN_PORT_ETH` and `_CHAIN_PORT_MATIC`;
 * its database, app logs and hot wallet named after `name` ('' for the withdrawals bench).
 */
export function benchPlace(env: string, name: string, at: Record<'kafka' | 'gateway' | 'health' | 'chain', number>) {
  const port = (key: string, fallback: number) => Number(process.env[`${env}_${key}`] ?? fallback);
  const file = (f: string) => join(OUT_DIR, name ? `${name}-${f}` : f);
  const chainPorts: ChainPorts = { ETH: port('CHAIN_PORT_ETH', at.chain), MATIC: port('CHAIN_PORT_MATIC', at.chain + 1) };
  return {
    kafkaPort: port('KAFKA_PORT', at.kafka),
    databaseUrl: process.env[`${env}_DATABASE_URL`] ?? `postgresql://postgres@127.0.0.1:5432/partner_bench${name ? `_${name}` : ''}`,
    gatewayPort: port('GATEWAY_PORT', at.gateway),
    healthPortBase: port('HEALTH_PORT_BASE', at.health),
    logDir: file('logs'),
    chainPorts,
    hotWalletKey: file('hot-wallet.key'),
  };
}
export type BenchPlace = ReturnType<typeof benchPlace>;

/** What a bench's stack runs with; `env` on top of a sandbox, quiet logs, a rate limit far above any load and the chains' settings. */
export interface BenchStack {
  build: boolean;
  blockTimeMs: number;
  chainTimings: LocalChainTimings;
  env?: Record<string, string>;
  /** Another checkout whose dist/ the apps run from and whose migrations are applied. */
  appRoot?: string;
  /** One app's options changed. */
  tweak?: (app: AppName, o: StackOptions) => StackOptions;
}

/**
 * One bench's run: what it started (broker, chains, counterparties, apps), stopped once and in reverse at
 * the end, on an error or on Ctrl-C (exit 130).
 */
export class Bench {
  interrupted = false;
  readonly stopped = () => this.interrupted;
  private readonly stops: Array<[string, () => unknown]> = [];
  private cleaning?: Promise<void>;

  constructor(readonly name: string) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.on(signal, () => {
        if (this.interrupted) return;
        this.interrupted = true;
        console.error(`\n${name}: ${signal}, stopping...`);
        void this.cleanup().finally(() => process.exit(130));
      });
  }

  onStop(what: string, stop: () => unknown): void {
    this.stops.push([what, stop]);
  }

  cleanup(): Promise<void> {
    this.cleaning ??= (async () => {
      for (const [what, stop] of this.stops.reverse())
        await Promise.resolve()
          .then(stop)
          .catch((e: unknown) => console.error(`${this.name}: stopping ${what} failed: ${(e as Error).message}`));
    })();
    return this.cleaning;
  }

  /** Runs `main`, cleans up, and exits: 0, 130 after Ctrl-C, 1 on an error. */
  run(main: () => Promise<void>): void {
    main()
      .finally(() => this.cleanup())
      .then(
        () => process.exit(this.interrupted ? 130 : 0),
        (error: unknown) => {
          console.error(`${this.name} failed: ${error instanceof Error ? error.stack : String(error)}`);
          process.exit(1);
        },
      );
  }

  /**
   * The stack a bench measures, at `at`: the workspace built (unless not asked), a fresh broker, new chains with the
   * hot wallet funded, pix-keys' DICT test server and the owner notifier's sinks on ports the OS picks, the database
   * recreated and migrated, then the six apps, held from the first spawn so that Ctrl-C stops them. Each step's ms
   * into `timings`; `admin` is the sandbox's admin key.
   */
  async stack(at: BenchPlace, s: BenchStack, timings: Record<string, number> = {}) {
    const time = <T>(name: string, f: () => T | Promise<T>) => timed(timings, name, f);
    if (s.build) await time('buildMs', () => buildWorkspace(root));
    this.onStop('the broker', () => kafka('stop', at.kafkaPort));
    await time('kafkaStartMs', () => freshKafka(at.kafkaPort));
    const hotWallet = ensureHotWalletKey(at.hotWalletKey);
    this.onStop('the chains', () => stopLocalChains(at.chainPorts));
    const chains = await time('chainsStartMs', () =>
      ensureLocalChains({ ports: at.chainPorts, hotWallets: [hotWallet.address], blockTimeMs: s.blockTimeMs, fresh: true }),
    );
    const dict = await startStackDict({ name: `bench-${this.name}`, port: 0, timings: DEV_DICT_TIMINGS });
    this.onStop('the DICT test server', () => dict.server.close());
    const sinks = await startSinks({ ...DEV_SINKS, smtpPort: 0, httpPort: 0 });
    this.onStop('the sinks', () => sinks.stop());
    await time('databaseRecreateMs', () => recreateDatabase(at.databaseUrl));
    await time('migrateMs', () => migrate(at.databaseUrl, undefined, s.appRoot));
    const admin = adminKey();
    const chainEnv = chainAppEnv(chains, [hotWallet.keyFile], s.chainTimings);
    const env = { ...sandboxEnv(admin), ...chainEnv, ...dict.env, ...sinkAppEnv(sinks, DEV_SINKS), ...s.env };
    const options: StackOptions = { ...at, appRoot: s.appRoot, env };
    for (const app of APPS) rmSync(join(at.logDir, `${app}.log`), { force: true });
    const processes = new Map<AppName, ChildProcess>();
    const health = `http://127.0.0.1:${healthPortOf('gateway', at.healthPortBase)}`;
    const apps = new RunningStack(processes, `http://127.0.0.1:${at.gatewayPort}`, health);
    this.onStop('the apps', () => apps.stop(15_000));
    // The bus's deploy step (topics, principals, ACLs), as every stack runs it before its apps.
    await time('busSetupMs', () => setUpLocalBus(options));
    for (const app of APPS) processes.set(app, startApp(app, s.tweak?.(app, options) ?? options));
    await time('stackReadyMs', () => waitUntilReady(apps, 120_000));
    return { stack: apps, options, chains, admin };
  }

  /** `args` run by `command` until the end, its output into `logFile`; ready once `healthUrl` answers 200 within `deadlineMs`. */
  async process(
    what: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    logFile: string,
    healthUrl: string,
    deadlineMs: number,
  ) {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.onStop(what, () => stopProcess(child, 10_000));
    const log = createWriteStream(logFile);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    for (const until = Date.now() + deadlineMs; ; await sleep(200)) {
      if (child.exitCode !== null) throw new Error(`${what}: its process exited with ${child.exitCode}; see ${logFile}`);
      const answer = fetch(healthUrl, { signal: AbortSignal.timeout(2_000) });
      if (await answer.then((r) => r.status === 200).catch(() => false)) return child;
      if (Date.now() > until) throw new Error(`${healthUrl} not healthy after ${deadlineMs / 1000} s`);
    }
  }
}
