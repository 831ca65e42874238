/**
 * The outbox relay's own cost per round, apart from everything else: `npx tsx scripts/bench/outbox-relay.bench.ts
 * [--rounds N] [--rows K]`. A scratch schema in the local PostgreSQL (database `partner_bench`, created if
 * missing; dropped at the end) holds an `outbox_messages` table shaped like the services' own; each round
 * inserts K rows and drains them through `OutboxRelay` with a bus that acknowledges at once, so what is
 * timed is the relay's SQL: its round trips and the work of this process and of its PostgreSQL backend.
 *
 * Prints wall time per round (p50, p99) and CPU per round of this process and of the backend (from
 * /proc, Linux). Compare two versions of the relay by running it on each, minutes apart.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { distribution } from './bench-load';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** CPU time of a process in ms (user + system), from /proc. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function main(): Promise<void> {
  const rounds = option('rounds', 2000);
  const rowsPerRound = option('rows', 1);
  const admin = new Client({ connectionString: DATABASE_URL.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  const database = new URL(DATABASE_URL).pathname.slice(1);
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();

  const schema = `relay_bench_${randomBytes(4).toString('hex')}`;
  const table = `"${schema}"."outbox_messages"`;
  // One connection: the relay's and the inserts' statements run on the backend measured.
  const pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(`CREATE TABLE ${table} (id BIGSERIAL PRIMARY KEY, topic TEXT NOT NULL, key TEXT NOT NULL, payload JSONB NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, published_at TIMESTAMPTZ(3), request_id TEXT)`);
  await pool.query(`CREATE INDEX ON ${table} (id) WHERE published_at IS NULL`);
  const backend = Number((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);

  let published = 0;
  const bus = { publishBatch: async (messages: unknown[]) => void (published += messages.length) } as unknown as MessageBus;
  const relay = new OutboxRelay(pool, bus, { schema, pollMs: 60_000, batchSize: 500 });
  const insert = `INSERT INTO ${table} (topic, key, payload) SELECT 'bench.topic', 'k' || g, '{"n":1}'::jsonb FROM generate_series(1, ${rowsPerRound}) g`;

  const run = async (n: number, times?: number[]) => {
    for (let i = 0; i < n; i++) {
      await pool.query(insert);
      const started = performance.now();
      await relay.drain();
      times?.push(performance.now() - started);
    }
  };
  await run(Math.min(500, rounds)); // warm-up: JIT, prepared plans, the backend's caches

  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const backend0 = cpuMsOf(backend);
  await run(rounds, times);
  const cpu = process.cpuUsage(cpu0);
  const backendMs = cpuMsOf(backend) - backend0;

  await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
  await pool.end();
  const d = distribution(times)!;
  const perRound = (ms: number) => (ms / rounds).toFixed(3);
  console.log(`outbox relay: ${rounds} rounds of ${rowsPerRound} row(s), ${published} published`);
  console.log(`  drain wall ms: p50 ${d.p50.toFixed(2)} p99 ${d.p99.toFixed(2)}`);
  console.log(`  CPU ms per round (inserts included): this process ${perRound((cpu.user + cpu.system) / 1000)}, PostgreSQL backend ${perRound(backendMs)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
