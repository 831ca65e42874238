/**
 * `npm run bench:work-queue`: the services' background-work queue (WorkQueue, libs/db) against pg-boss on the
 * same PostgreSQL, in one run (ADR 0038). Each round hands N jobs to W workers (1, 4, 8); a worker claims a
 * batch, then settles each job on its own, as the services do (each outcome is its own transaction). The floor
 * is the same number of round trips doing no work (`SELECT 1`): what the connection costs, measured in the
 * same run; each queue is given as jobs/s and as a ratio to it. Jobs handled twice are counted (must be 0).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { Queryable, runStatement, Statement, WorkQueue } from '@partner/db';
import { recreateDatabase } from '../stack/stack';
import { Bench } from './harness';

const DATABASE_URL = process.env.WORK_QUEUE_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_work_queue';
const N = Number(process.env.WORK_QUEUE_BENCH_JOBS ?? 4000);
const BATCH = 10;
const WORKERS = [1, 4, 8];
const ROUNDS = 3;

type Variant = 'floor' | 'work-queue' | 'pg-boss';
/** One worker's loop: takes batches until none is left; calls `handled(id)` for each job it settles. */
type Worker = (handled: (id: string) => void) => Promise<void>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });
  const db: Queryable = { query: (s: Statement | string, values?: unknown[]) => runStatement(pool, s, values) };
  await pool.query(
    `CREATE TABLE jobs (id bigserial PRIMARY KEY, state text NOT NULL DEFAULT 'open', attempts int NOT NULL DEFAULT 0,
                        next_attempt_at timestamptz, last_error text)`,
  );
  await pool.query(`CREATE INDEX jobs_due_idx ON jobs (next_attempt_at NULLS FIRST, id) WHERE state = 'open'`);
  const queue = new WorkQueue({ name: 'bench_jobs', table: 'jobs', workable: "state = 'open'" });
  const settle = `UPDATE jobs SET state = 'done', ${queue.cleared} WHERE ${queue.heldBy(1, 2)}`;

  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: DATABASE_URL, schema: 'pgboss', max: 10, supervise: false, schedule: false });
  boss.on('error', (error: Error) => console.error(`pg-boss: ${error.message}`));
  await boss.start();

  let remaining = 0;
  let bossQueue = '';
  const variants: Record<Variant, { fill: (round: number) => Promise<void>; worker: Worker }> = {
    floor: {
      fill: async () => void (remaining = N),
      worker: async (handled) => {
        while (remaining > 0) {
          const take = Math.min(BATCH, remaining);
          remaining -= take;
          await pool.query('SELECT 1');
          for (let i = 0; i < take; i++) {
            await pool.query('SELECT 1');
            handled(`${remaining + i}`);
          }
        }
      },
    },
    'work-queue': {
      fill: async () => {
        await pool.query('TRUNCATE jobs');
        await pool.query('INSERT INTO jobs (next_attempt_at) SELECT NULL FROM generate_series(1, $1::int)', [N]);
      },
      worker: async (handled) => {
        for (;;) {
          const now = new Date();
          const jobs = await queue.claim<{ id: string; attempts: number }>(db, now, new Date(now.getTime() + 60_000), BATCH);
          if (jobs.length === 0) return;
          for (const job of jobs) {
            await pool.query(settle, [job.id, job.attempts]);
            handled(job.id);
          }
        }
      },
    },
    'pg-boss': {
      fill: async (round) => {
        bossQueue = `bench-${round}`;
        await boss.createQueue(bossQueue);
        for (let i = 0; i < N; i += 1000)
          await boss.insert(
            bossQueue,
            Array.from({ length: Math.min(1000, N - i) }, () => ({ data: {} })),
          );
      },
      worker: async (handled) => {
        for (;;) {
          const jobs = await boss.fetch(bossQueue, { batchSize: BATCH });
          if (jobs.length === 0) return;
          for (const job of jobs) {
            await boss.complete(bossQueue, job.id);
            handled(job.id);
          }
        }
      },
    },
  };

  const perSec: Record<string, number[]> = {};
  let round = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of WORKERS) {
      for (const variant of Object.keys(variants) as Variant[]) {
        round += 1;
        await variants[variant].fill(round);
        const seen = new Map<string, number>();
        const handled = (id: string) => seen.set(id, (seen.get(id) ?? 0) + 1);
        const t0 = performance.now();
        await Promise.all(Array.from({ length: workers }, () => variants[variant].worker(handled)));
        const wall = performance.now() - t0;
        const twice = [...seen.values()].filter((n) => n > 1).length;
        if (variant !== 'floor' && (seen.size !== N || twice > 0))
          throw new Error(`${variant} with ${workers} workers handled ${seen.size} of ${N} jobs, ${twice} twice`);
        (perSec[`${variant}/${workers}`] ??= []).push((N / wall) * 1000);
      }
    }
  }

  console.log(`${N} jobs per round, batches of ${BATCH}, ${ROUNDS} rounds alternating; medians (node ${process.version})`);
  console.log('  workers  floor jobs/s  work-queue jobs/s (ratio)  pg-boss jobs/s (ratio)   every job once');
  for (const workers of WORKERS) {
    const [floor, wq, pb] = (['floor', 'work-queue', 'pg-boss'] as const).map((v) => median(perSec[`${v}/${workers}`]));
    console.log(
      `  ${String(workers).padStart(7)}  ${floor.toFixed(0).padStart(12)}  ${wq.toFixed(0).padStart(10)} (${(wq / floor).toFixed(2)})` +
        `${pb.toFixed(0).padStart(20)} (${(pb / floor).toFixed(2)})   yes`,
    );
  }
  await boss.stop({ graceful: false, close: true });
  await pool.end();
}

new Bench('work-queue bench').run(main);
