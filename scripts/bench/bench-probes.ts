/**
 * What `npm run bench` reads besides HTTP answers: the bench database (lag from commit timestamps,
 * completion, outbox and chain backlogs, pg_stat_database counters), /proc (CPU and RSS per process,
 * PostgreSQL backends included) and each app's /metrics (event-loop lag).
 */
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { distribution, Distribution, sleep } from './bench-load';

// ------------------------------------------------------------------------------------ /proc
/** CPU milliseconds (user+system) a process has used so far; null when it is gone or unreadable. */
export function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

/** Resident set size in MB, from /proc/<pid>/status. */
export function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Proportional set size in MB (/proc/<pid>/smaps_rollup): pages shared with other processes (the
 * node binary's code, about 45 MB of each app's RSS) divided among them, so the sum over processes is
 * what they really hold together. Reading it walks the page tables: not for every sample.
 */
export function pssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export interface MemoryUnderLoad {
  /** Samples in which every app's RSS was read. */
  samples: number;
  /** Sum of the apps' RSS (MB) over the samples. */
  sum: { median: number; peak: number } | null;
  perApp: Record<string, { median: number; peak: number }>;
}

/**
 * The apps' RSS sampled from /proc while load runs (start/stop around each measured window): the
 * memory goal is about a stack at work, and RSS after the bench is that of a stack at rest.
 */
export class RssSampler {
  private readonly sums: number[] = [];
  private readonly perApp = new Map<string, number[]>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pids: () => Map<string, number | undefined>,
    readonly everyMs = 500,
  ) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  summary(): MemoryUnderLoad {
    const stats = (values: number[]) => {
      const d = distribution(values);
      return d ? { median: d.p50, peak: d.max } : null;
    };
    const perApp: MemoryUnderLoad['perApp'] = {};
    for (const [app, values] of this.perApp) perApp[app] = stats(values) ?? { median: 0, peak: 0 };
    return { samples: this.sums.length, sum: stats(this.sums), perApp };
  }

  private sample(): void {
    const read = [...this.pids()].map(([app, pid]) => [app, rssMb(pid)] as const);
    if (read.some(([, mb]) => mb === null)) return; // an app restarting: a partial sum would read low
    for (const [app, mb] of read) {
      const values = this.perApp.get(app) ?? [];
      values.push(mb as number);
      this.perApp.set(app, values);
    }
    this.sums.push(read.reduce((n, [, mb]) => n + (mb as number), 0));
  }
}

// ------------------------------------------------------------------------------------ /metrics
/** Garbage collection of one app so far, from prom-client's `nodejs_gc_duration_seconds` (all kinds summed). */
export interface GcTotals {
  seconds: number;
  collections: number;
  /** Collections of at most 10 ms (the histogram's 0.01 bucket). */
  upTo10ms: number;
}

/** What a window cost an app in garbage collection. */
export interface GcWindow {
  msPerSecond: number;
  /** Collections of more than 10 ms in the window. */
  over10ms: number;
}

export interface AppScrape {
  /** `nodejs_eventloop_lag_p99_seconds` in ms: prom-client resets its event-loop histogram at every scrape, so a scrape before a phase and one after it give the p99 over the phase. */
  loopP99Ms: number | null;
  gc: GcTotals | null;
}

/** One scrape of an app's /metrics: its event-loop lag p99 since the last scrape, and its GC totals. */
export async function scrapeApp(url: string): Promise<AppScrape> {
  const text = await scrapeMetrics(url);
  if (text === null) return { loopP99Ms: null, gc: null };
  const [loop] = seriesValues(text, 'nodejs_eventloop_lag_p99_seconds');
  const sum = (name: string, labels?: string) => seriesValues(text, name, labels).reduce((n, v) => n + v, 0);
  const gc = text.includes('nodejs_gc_duration_seconds_count')
    ? {
        seconds: sum('nodejs_gc_duration_seconds_sum'),
        collections: sum('nodejs_gc_duration_seconds_count'),
        upTo10ms: sum('nodejs_gc_duration_seconds_bucket', 'le="0\\.01",[^}]*'),
      }
    : null;
  return { loopP99Ms: loop === undefined ? null : Math.round(loop * 1000 * 100) / 100, gc };
}

export function gcWindow(before: GcTotals | null | undefined, after: GcTotals | null | undefined, seconds: number): GcWindow | null {
  if (!before || !after || seconds <= 0) return null;
  return {
    msPerSecond: Math.round((((after.seconds - before.seconds) * 1000) / seconds) * 100) / 100,
    over10ms: after.collections - after.upTo10ms - (before.collections - before.upTo10ms),
  };
}

/** Where an app's memory is, in MB, from prom-client's default metrics (process.memoryUsage()). */
export interface HeapSplit {
  heapUsed: number;
  heapTotal: number;
  external: number;
}

export async function heapSplitMb(url: string): Promise<HeapSplit | null> {
  const names = ['nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes'];
  const v = await metricValues(url, names);
  if (names.some((n) => v[n] === undefined)) return null;
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  return {
    heapUsed: mb(v.nodejs_heap_size_used_bytes),
    heapTotal: mb(v.nodejs_heap_size_total_bytes),
    external: mb(v.nodejs_external_memory_bytes),
  };
}

/** The value of each metric of `names` (its first series) in one scrape of `url`; {} when the app does not answer. */
async function metricValues(url: string, names: string[]): Promise<Record<string, number>> {
  const text = await scrapeMetrics(url);
  const out: Record<string, number> = {};
  for (const name of names) {
    const [value] = text === null ? [] : seriesValues(text, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** An app's /metrics page (Prometheus text format), or null when the app does not answer. */
async function scrapeMetrics(url: string): Promise<string | null> {
  try {
    return await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();
  } catch {
    return null;
  }
}

/** The values of metric `name`'s series in a scrape, in order; `labels` (a RegExp source) picks series by their label set. */
function seriesValues(text: string, name: string, labels = '[^}]*'): number[] {
  const series = new RegExp(`^${name}(?:\\{${labels}\\})? ([0-9.eE+-]+)$`, 'gm');
  return [...text.matchAll(series)].map((m) => Number(m[1]));
}

// ------------------------------------------------------------------------------------ database
export interface PgCounters {
  xactCommit: number;
  xactRollback: number;
  tupInserted: number;
  tupUpdated: number;
  tupDeleted: number;
  tupFetched: number;
  /** Total calls in pg_stat_statements for this database, when the extension is loaded. */
  statements: number | null;
}

export interface Backlog {
  /** Unpublished outbox rows per schema. */
  outbox: Record<string, number>;
  outboxTotal: number;
  /** Withdrawals whose chain move is past due (created older than the send bound, sent older than the settle bound). */
  chainDue: number;
}

export interface LagResult {
  lagMs: Distribution | null;
  /** Withdrawals whose `created` event is not in the feed. */
  missing: number;
}

export class BenchDatabase {
  private readonly client: Client;
  private outboxSchemas: string[] = [];
  statementsAvailable = false;
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
    // pg_stat_statements only counts when the server preloads it (shared_preload_libraries); creating
    // the extension without that would make every read of its view fail.
    const preload = await this.client.query<{ v: string }>('SELECT current_setting($1) AS v', ['shared_preload_libraries']);
    if (
      preload.rows[0].v
        .split(',')
        .map((s) => s.trim())
        .includes('pg_stat_statements')
    ) {
      await this.client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      this.statementsAvailable = true;
    } else {
      this.statementsNote =
        'pg_stat_statements is not in shared_preload_libraries: statements per request not measured (commits and tuples only)';
    }
  }

  async end(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  /** PIDs of the backends connected to the bench database (the apps' pools), this probe's own excluded. */
  async backendPids(): Promise<number[]> {
    const r = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return r.rows.map((row) => row.pid);
  }

  /**
   * pg_stat_database counters. PostgreSQL 15 flushes a backend's counters when it goes idle, at most
   * once a second and up to 10 s late for a backend that then stays idle: counts over a short window
   * are approximate at its edges (a phase's delta includes its drain, which gives them time to land).
   */
  async counters(): Promise<PgCounters> {
    const r = await this.client.query<Record<string, string>>(
      `SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, tup_fetched
       FROM pg_stat_database WHERE datname = current_database()`,
    );
    const row = r.rows[0];
    let statements: number | null = null;
    if (this.statementsAvailable) {
      const s = await this.client.query<{ calls: string }>(
        'SELECT COALESCE(sum(calls), 0)::bigint AS calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())',
      );
      statements = Number(s.rows[0].calls);
    }
    return {
      xactCommit: Number(row.xact_commit),
      xactRollback: Number(row.xact_rollback),
      tupInserted: Number(row.tup_inserted),
      tupUpdated: Number(row.tup_updated),
      tupDeleted: Number(row.tup_deleted),
      tupFetched: Number(row.tup_fetched),
      statements,
    };
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
    const row = r.rows[0];
    const outbox: Record<string, number> = {};
    for (const s of this.outboxSchemas) outbox[s] = row[s];
    return { outbox, outboxTotal: Object.values(outbox).reduce((a, b) => a + b, 0), chainDue: row.chain_due };
  }

  /** How many of `ids` have a final state both in the withdrawals table and in the feed. */
  async finished(ids: number[]): Promise<number> {
    const r = await this.client.query<{ n: number }>(
      // A join the planner can hash: a correlated EXISTS probed the feed's (partner, type, sequence)
      // index once per withdrawal and walked all of the partner's events each time; polled every
      // --poll-ms over 10,000 withdrawals, it loaded PostgreSQL more than the stack under test did.
      `SELECT count(*)::int AS n
       FROM withdrawals.withdrawals w
       JOIN (SELECT DISTINCT partner_id, resource_id, state FROM events.feed_events
             WHERE type = 'usdt_withdrawal' AND state IN ('settled', 'failed')) f
         ON f.partner_id = w.partner_id AND f.resource_id = w.id::text AND f.state = w.state
       WHERE w.id = ANY($1::int[]) AND w.state IN ('settled', 'failed')`,
      [ids],
    );
    return r.rows[0].n;
  }

  /** Waits (polling every `pollMs`) until every withdrawal of `ids` is final in the feed; returns the ones that are not. */
  async waitFinished(ids: number[], timeoutMs: number, pollMs: number, stopped: () => boolean): Promise<number> {
    const until = Date.now() + timeoutMs;
    let done = 0;
    // Both tables grow by thousands of rows per run, faster than autovacuum re-analyses them: with stale
    // statistics the planner nested-looped this check into seconds per poll (seen in pg_stat_activity).
    await this.client.query('ANALYZE withdrawals.withdrawals, events.feed_events');
    while (!stopped()) {
      done = await this.finished(ids);
      if (done >= ids.length || Date.now() > until) break;
      await sleep(pollMs);
    }
    return ids.length - done;
  }

  /**
   * Creation → feed lag from the database's own clocks: the withdrawal's created_at (set in the
   * transaction that created it) against the created_at of its `created` row in the feed (set in the
   * projector's transaction). No API poll, so neither the poll period nor the poller's load is in it.
   */
  async creationToFeedLag(ids: number[]): Promise<LagResult> {
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

/** Samples the backlog every `everyMs` while a run goes on; start, max and end summarize it. */
export class BacklogSampler {
  readonly samples: Array<{ atMs: number } & Backlog> = [];
  private timer?: NodeJS.Timeout;
  private busy = false;
  private readonly t0 = Date.now();

  constructor(
    private readonly db: BenchDatabase,
    private readonly everyMs = 1000,
  ) {}

  async start(): Promise<void> {
    await this.sample();
    this.timer = setInterval(() => void this.sample(), this.everyMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.busy) await sleep(10);
    await this.sample();
  }

  summary(): {
    outbox: { start: number; max: number; end: number };
    chainDue: { start: number; max: number; end: number };
    samples: number;
  } {
    const pick = (f: (b: Backlog) => number) => ({
      start: this.samples.length ? f(this.samples[0]) : 0,
      max: Math.max(0, ...this.samples.map(f)),
      end: this.samples.length ? f(this.samples[this.samples.length - 1]) : 0,
    });
    return { outbox: pick((b) => b.outboxTotal), chainDue: pick((b) => b.chainDue), samples: this.samples.length };
  }

  private async sample(): Promise<void> {
    if (this.busy) return; // a slow database: skip a tick rather than pile queries up
    this.busy = true;
    try {
      this.samples.push({ atMs: Date.now() - this.t0, ...(await this.db.backlog()) });
    } catch {
      /* a missed sample shows as a gap */
    } finally {
      this.busy = false;
    }
  }
}
