/**
 * Where an open loop's tail comes from (issue #27, item 2): measured over the open loop's window, beside
 * its latency distribution. A request waits for the processes it crosses; each of them can be busy with
 * its own work (handlers, garbage collection) or ready but waiting for one of the machine's cores, and
 * PostgreSQL's backends can wait on locks or on the WAL's disk. Each of these is read where the
 * kernel or PostgreSQL already counts it, so the probe adds no work to the apps (garbage collection is
 * read from each app's /metrics by the bench's measure(), in the scrapes that bound the window):
 * - waiting for a core: /proc/pressure/cpu ("some": the share of the window in which at least one
 *   runnable task had no core) and each app's main thread's run-queue wait (/proc/<pid>/schedstat; the
 *   main thread is the event loop);
 * - PostgreSQL: the bench database's active backends sampled every 50 ms by what they wait on
 *   (`CPU` when on none, else `wait_event_type:wait_event`, e.g. `Lock:transactionid`, `IO:WALSync`).
 */
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { sleep } from './bench-load';

/** Latency buckets of the distribution the bench prints (upper bounds, ms; the last is open). */
export const LATENCY_BUCKETS_MS = [5, 10, 20, 50, 100, 200, 500, 1000] as const;

/** How many latencies fall in each bucket of LATENCY_BUCKETS_MS, then above the last. */
export function histogram(latencies: number[]): number[] {
  const counts = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  for (const l of latencies) {
    const i = LATENCY_BUCKETS_MS.findIndex((b) => l <= b);
    counts[i === -1 ? LATENCY_BUCKETS_MS.length : i]++;
  }
  return counts;
}

/** Microseconds during which some runnable task had no core, since boot; null without PSI. */
function cpuPressureUs(): number | null {
  try {
    const m = /^some .*total=(\d+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Nanoseconds the process's main thread has waited on a run queue, since it started; null when gone. */
function runQueueWaitNs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
  } catch {
    return null;
  }
}

export interface TailSources {
  seconds: number;
  /** Share of the window (%) in which some runnable task of the machine waited for a core. */
  cpuPressurePct: number | null;
  /** Each app's main thread (its event loop): ms per second of the window it was ready but had no core. */
  runQueueMsPerS: Record<string, number | null>;
  /** PostgreSQL's active backends of the bench database, sampled: share (%) of samples per wait, and the samples taken. */
  postgres: { backendSamples: number; byWait: Record<string, number> };
}

/** Started just before the open loop's requests and stopped just after them. */
export class TailProbe {
  private t0 = 0;
  private pressure0: number | null = null;
  private readonly runQueue0 = new Map<string, number | null>();
  private readonly waits = new Map<string, number>();
  private sampling?: Promise<void>;
  private running = false;
  private client?: Client;

  constructor(
    /** Each app's pid. */
    private readonly apps: Map<string, number | undefined>,
    private readonly databaseUrl: string,
    private readonly everyMs = 50,
  ) {}

  async start(): Promise<void> {
    for (const [name, pid] of this.apps) this.runQueue0.set(name, runQueueWaitNs(pid));
    this.pressure0 = cpuPressureUs();
    this.t0 = performance.now();
    this.client = new Client({ connectionString: this.databaseUrl });
    await this.client.connect();
    this.running = true;
    this.sampling = this.sample(this.client);
  }

  async stop(): Promise<TailSources> {
    const seconds = (performance.now() - this.t0) / 1000;
    const pressure = cpuPressureUs();
    const runQueue = new Map([...this.apps].map(([name, pid]) => [name, runQueueWaitNs(pid)]));
    this.running = false;
    await this.sampling;
    await this.client?.end();
    const runQueueMsPerS: Record<string, number | null> = {};
    for (const name of this.apps.keys()) {
      const [rq0, rq1] = [this.runQueue0.get(name), runQueue.get(name)];
      runQueueMsPerS[name] = rq0 == null || rq1 == null ? null : round((rq1 - rq0) / 1e6 / seconds);
    }
    const byWait: Record<string, number> = {};
    const samples = [...this.waits.values()].reduce((n, c) => n + c, 0);
    for (const [wait, count] of [...this.waits].sort((a, b) => b[1] - a[1])) byWait[wait] = round((count / Math.max(1, samples)) * 100);
    return {
      seconds: round(seconds),
      cpuPressurePct: this.pressure0 === null || pressure === null ? null : round((pressure - this.pressure0) / 1e4 / seconds),
      runQueueMsPerS,
      postgres: { backendSamples: samples, byWait },
    };
  }

  private async sample(client: Client): Promise<void> {
    while (this.running) {
      const { rows } = await client.query<{ wait: string; n: number }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait, count(*)::int AS n
         FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
         GROUP BY 1`,
      );
      for (const { wait, n } of rows) this.waits.set(wait, (this.waits.get(wait) ?? 0) + n);
      await sleep(this.everyMs);
    }
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
