/**
 * What the benches read besides HTTP answers, where the kernel, V8 or PostgreSQL already counts it: /proc, the
 * apps' /metrics and the bench database. Definitions: docs/benchmarks/the-benches.md, "The measures".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { distribution, Distribution, every, list, root, round, sleep } from './harness';

// ------------------------------------------------------------------------------------ /proc
const readProc = <T>(path: string, parse: (text: string) => T): T | null => {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
};
const kbToMb = (re: RegExp) => (text: string) => {
  const m = re.exec(text);
  return m ? Math.round(Number(m[1]) / 1024) : null;
};

/** CPU milliseconds (user+system, clock ticks of 10 ms) a process has used so far; null when gone. */
export const cpuMs = (pid: number | undefined) =>
  pid
    ? readProc(`/proc/${pid}/stat`, (stat) => {
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10;
      })
    : null;
export const rssMb = (pid: number | undefined) => (pid ? readProc(`/proc/${pid}/status`, kbToMb(/VmRSS:\s+(\d+) kB/)) : null);
/** Proportional set size: pages shared with other processes divided among them (walks the page tables: not for every sample). */
export const pssMb = (pid: number | undefined) => (pid ? readProc(`/proc/${pid}/smaps_rollup`, kbToMb(/^Pss:\s+(\d+) kB/m)) : null);
export const pidFile = (file: string) =>
  readProc(file, (t) => {
    const pid = Number(t.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }) ?? undefined;
export const brokerPid = (port: number) => pidFile(join(root, '.cache', 'kafka', `data-${port}`, 'kafka.pid'));

/** CPU ms of each process so far, `bench` (this one) and each PostgreSQL backend (`pg:<pid>`) of `db`'s database included. */
export async function cpuSnapshot(pids: Map<string, number | undefined>, db?: Client): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const own = process.cpuUsage();
  const sql = 'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()';
  const backends = db ? (await db.query<{ pid: number }>(sql)).rows.map(({ pid }) => [`pg:${pid}`, pid] as const) : [];
  const all: Array<readonly [string, number | undefined]> = [...pids, ...backends];
  for (const [name, pid] of all) {
    const ms = cpuMs(pid);
    if (ms !== null) out.set(name, ms);
  }
  out.set('bench', (own.user + own.system) / 1000);
  return out;
}

/** CPU ms used between two snapshots, PostgreSQL's backends summed as `postgres` (one that appeared counts from its start). */
export function cpuDelta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = { postgres: 0 };
  for (const [key, a] of after) {
    const pg = key.startsWith('pg:');
    const b = before.get(key) ?? (pg ? 0 : undefined);
    if (b !== undefined) out[pg ? 'postgres' : key] = (out[pg ? 'postgres' : key] ?? 0) + a - b;
  }
  return out;
}

export const perUnit = (totals: Record<string, number>, units: number) =>
  Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, round(v / Math.max(1, units))]));

export type MemoryUnderLoad = ReturnType<RssSampler['summary']>;

/** `sample()` every `everyMs` from start() to stop(), and once more at stop(). */
abstract class Sampler {
  private sampling?: Awaited<ReturnType<typeof every>>;

  constructor(readonly everyMs: number) {}

  async start(): Promise<void> {
    this.sampling = await every(this.everyMs, () => this.sample());
  }

  async stop(): Promise<void> {
    await this.sampling?.stop();
    await this.sample();
  }

  protected abstract sample(): unknown;
}

/** The apps' RSS sampled while load runs (start/stop around each measured window); a sample with an app missing is dropped. */
export class RssSampler extends Sampler {
  private readonly sums: number[] = [];
  private readonly perApp = new Map<string, number[]>();

  constructor(private readonly pids: () => Map<string, number | undefined>) {
    super(500);
  }

  /** Median and peak per app, and of the apps' RSS summed (MB). */
  summary() {
    const stats = (values: number[]) => {
      const d = distribution(values);
      return d ? { median: d.p50, peak: d.max } : null;
    };
    const perApp = Object.fromEntries([...this.perApp].map(([app, v]) => [app, stats(v) ?? { median: 0, peak: 0 }]));
    return { samples: this.sums.length, sum: stats(this.sums), perApp };
  }

  protected sample(): void {
    const read = [...this.pids()].map(([app, pid]) => [app, rssMb(pid)] as const);
    if (read.some(([, mb]) => mb === null)) return;
    for (const [app, mb] of read) this.perApp.set(app, [...(this.perApp.get(app) ?? []), mb as number]);
    this.sums.push(read.reduce((n, [, mb]) => n + (mb as number), 0));
  }
}

// ------------------------------------------------------------------------------------ /metrics
/** An app's /metrics page, or null when it does not answer. */
export async function scrapeMetrics(url: string): Promise<string | null> {
  try {
    return await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();
  } catch {
    return null;
  }
}

/** The values of `name`'s series on a page; `labels` (a RegExp source) picks series by their label set. */
export function seriesValues(text: string, name: string, labels = '[^}]*'): number[] {
  return [...text.matchAll(new RegExp(`^${name}(?:\\{${labels}\\})? ([0-9.eE+-]+)$`, 'gm'))].map((m) => Number(m[1]));
}

export const seriesSum = (text: string, name: string, labels?: string) => seriesValues(text, name, labels).reduce((n, v) => n + v, 0);

/** GC so far from `nodejs_gc_duration_seconds` (all kinds), with the collections of at most 10 ms. */
type GcTotals = Record<'seconds' | 'collections' | 'upTo10ms', number>;

/**
 * An app's event-loop lag p99 (prom-client resets its histogram at every scrape: a scrape before a window and
 * one after give the window's) and GC totals.
 */
export async function scrapeApp(url: string): Promise<{ loopP99Ms: number | null; gc: GcTotals | null }> {
  const text = await scrapeMetrics(url);
  if (text === null) return { loopP99Ms: null, gc: null };
  const [loop] = seriesValues(text, 'nodejs_eventloop_lag_p99_seconds');
  const gc = text.includes('nodejs_gc_duration_seconds_count')
    ? {
        seconds: seriesSum(text, 'nodejs_gc_duration_seconds_sum'),
        collections: seriesSum(text, 'nodejs_gc_duration_seconds_count'),
        upTo10ms: seriesSum(text, 'nodejs_gc_duration_seconds_bucket', 'le="0\\.01",[^}]*'),
      }
    : null;
  return { loopP99Ms: loop === undefined ? null : round(loop * 1000), gc };
}

export function gcWindow(before: GcTotals | null | undefined, after: GcTotals | null | undefined, seconds: number) {
  if (!before || !after || seconds <= 0) return null;
  return {
    msPerSecond: round(((after.seconds - before.seconds) * 1000) / seconds),
    over10ms: after.collections - after.upTo10ms - (before.collections - before.upTo10ms),
  };
}

export type HeapSplit = Record<'heapUsed' | 'heapTotal' | 'external', number>;

/** Where an app's memory is (MB), from prom-client's default metrics. */
export async function heapSplitMb(url: string): Promise<HeapSplit | null> {
  const text = await scrapeMetrics(url);
  const [used, total, external] = ['nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes'].map(
    (n) => (text === null ? undefined : seriesValues(text, n)[0]),
  );
  if (used === undefined || total === undefined || external === undefined) return null;
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  return { heapUsed: mb(used), heapTotal: mb(total), external: mb(external) };
}

// ------------------------------------------------------------------------------------ database
/** pg_stat_database's counters; `statements` from pg_stat_statements when the server preloads it, else null. */
export type PgCounters = Record<'xactCommit' | 'xactRollback' | 'tupInserted' | 'tupUpdated' | 'tupDeleted' | 'tupFetched', number> & {
  statements: number | null;
};
export const counterDelta = (a: PgCounters, b: PgCounters) =>
  Object.fromEntries(
    Object.entries(b).map(([k, v]) => {
      const before = a[k as keyof PgCounters];
      return [k, v === null || before === null ? null : v - before];
    }),
  ) as PgCounters;

/** Unpublished outbox rows per schema, and withdrawals whose chain move is past due. */
type Backlog = { outbox: Record<string, number>; outboxTotal: number; chainDue: number };

export class BenchDatabase {
  readonly client: Client;
  private outboxSchemas: string[] = [];
  private statementsAvailable = false;
  statementsNote = '';

  constructor(
    databaseUrl: string,
    private readonly chain: { sendDelayMs: number; settleDelayMs: number },
  ) {
    this.client = new Client({ connectionString: databaseUrl, application_name: 'bench-probe' });
  }

  async connect(): Promise<void> {
    await this.client.connect();
    const rows = await this.client.query<{ schema: string }>(
      "SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox_messages' ORDER BY 1",
    );
    this.outboxSchemas = rows.rows.map((r) => r.schema);
    // pg_stat_statements counts only when preloaded; its view fails to read otherwise.
    const preload = await this.client.query<{ v: string }>("SELECT current_setting('shared_preload_libraries') AS v");
    if (list(preload.rows[0].v).includes('pg_stat_statements')) {
      await this.client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      this.statementsAvailable = true;
    } else
      this.statementsNote =
        'pg_stat_statements is not in shared_preload_libraries: statements per request not measured (commits and tuples only)';
  }

  async end(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  /** pg_stat_database counters; PostgreSQL 15 flushes a backend's up to 10 s late when it idles, so short windows are approximate. */
  async counters(): Promise<PgCounters> {
    const r = await this.client.query<Record<string, string | null>>(
      `SELECT xact_commit AS "xactCommit", xact_rollback AS "xactRollback", tup_inserted AS "tupInserted", tup_updated AS "tupUpdated",
              tup_deleted AS "tupDeleted", tup_fetched AS "tupFetched",
              ${this.statementsAvailable ? '(SELECT sum(calls) FROM pg_stat_statements WHERE dbid = d.datid)' : 'NULL'} AS statements
       FROM pg_stat_database d WHERE datname = current_database()`,
    );
    return Object.fromEntries(Object.entries(r.rows[0]).map(([k, v]) => [k, v === null ? null : Number(v)])) as PgCounters;
  }

  async backlog(): Promise<Backlog> {
    const outboxSql = this.outboxSchemas.map(
      (s) => `(SELECT count(*) FROM "${s}".outbox_messages WHERE published_at IS NULL)::int AS "${s}"`,
    );
    const r = await this.client.query<Record<string, number>>(
      `SELECT ${[
        ...outboxSql,
        `(SELECT count(*) FROM withdrawals.withdrawals
          WHERE (state = 'created' AND updated_at < now() - make_interval(secs => $1::float8 / 1000))
             OR (state = 'sent' AND updated_at < now() - make_interval(secs => $2::float8 / 1000)))::int AS chain_due`,
      ].join(', ')}`,
      [this.chain.sendDelayMs, this.chain.settleDelayMs],
    );
    const outbox = Object.fromEntries(this.outboxSchemas.map((s) => [s, r.rows[0][s]]));
    return { outbox, outboxTotal: Object.values(outbox).reduce((a, b) => a + b, 0), chainDue: r.rows[0].chain_due };
  }

  /** Waits (polling every `pollMs`) until every withdrawal of `ids` is final in its table and in the feed; returns how many are not. */
  async waitFinished(ids: number[], timeoutMs: number, pollMs: number, stopped: () => boolean): Promise<number> {
    const until = Date.now() + timeoutMs;
    let done = 0;
    // Fresh statistics: stale ones nested-looped this check into seconds per poll.
    await this.client.query('ANALYZE withdrawals.withdrawals, events.feed_events');
    while (!stopped()) {
      // A join the planner can hash: a correlated EXISTS walked the partner's events once per withdrawal.
      const r = await this.client.query<{ n: number }>(
        `SELECT count(*)::int AS n
         FROM withdrawals.withdrawals w
         JOIN (SELECT DISTINCT partner_id, resource_id, state FROM events.feed_events
               WHERE type = 'usdt_withdrawal' AND state IN ('settled', 'failed')) f
           ON f.partner_id = w.partner_id AND f.resource_id = w.id::text AND f.state = w.state
         WHERE w.id = ANY($1::int[]) AND w.state IN ('settled', 'failed')`,
        [ids],
      );
      done = r.rows[0].n;
      if (done >= ids.length || Date.now() > until) break;
      await sleep(pollMs);
    }
    return ids.length - done;
  }

  /** Creation → feed lag from the database's clocks (created_at against its feed row's), and the withdrawals not in the feed. */
  async creationToFeedLag(ids: number[]): Promise<{ lagMs: Distribution | null; missing: number }> {
    if (ids.length === 0) return { lagMs: null, missing: 0 };
    const r = await this.client.query<{ lag_ms: number }>(
      `SELECT EXTRACT(EPOCH FROM f.created_at - w.created_at)::float8 * 1000 AS lag_ms
       FROM withdrawals.withdrawals w
       JOIN events.feed_events f
         ON f.partner_id = w.partner_id AND f.type = 'usdt_withdrawal' AND f.state = 'created' AND f.resource_id = w.id::text
       WHERE w.id = ANY($1::int[])`,
      [ids],
    );
    return { lagMs: distribution(r.rows.map((row) => row.lag_ms)), missing: ids.length - r.rows.length };
  }
}

/** Samples the backlog every second while a run goes on. */
export class BacklogSampler extends Sampler {
  readonly samples: Array<{ atMs: number } & Backlog> = [];
  private readonly t0 = Date.now();

  constructor(private readonly db: BenchDatabase) {
    super(1000);
  }

  summary() {
    const pick = (f: (b: Backlog) => number) => ({
      start: this.samples.length ? f(this.samples[0]) : 0,
      max: Math.max(0, ...this.samples.map(f)),
      end: this.samples.length ? f(this.samples[this.samples.length - 1]) : 0,
    });
    return { outbox: pick((b) => b.outboxTotal), chainDue: pick((b) => b.chainDue), samples: this.samples.length };
  }

  protected async sample(): Promise<void> {
    // A missed sample shows as a gap.
    await this.db.backlog().then(
      (b) => this.samples.push({ atMs: Date.now() - this.t0, ...b }),
      () => undefined,
    );
  }
}

// ------------------------------------------------------------------------------------ latency buckets
/** Upper bounds (ms) of the latency buckets printed for an open loop; the last is open. */
export const LATENCY_BUCKETS_MS = [5, 10, 20, 50, 100, 200, 500, 1000] as const;

export function histogram(latencies: number[]): number[] {
  const counts = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  for (const l of latencies) {
    const i = LATENCY_BUCKETS_MS.findIndex((b) => l <= b);
    counts[i === -1 ? LATENCY_BUCKETS_MS.length : i]++;
  }
  return counts;
}
