/**
 * The outbox relay's own cost per round, apart from everything else: `npx tsx scripts/bench/outbox-relay.bench.ts
 * [--rounds N] [--rows K]`. A database of its own (`partner_relaybench`, recreated and migrated, so the
 * outbox is the withdrawals service's real table with its indexes); each round inserts K rows and drains
 * them through `OutboxRelay` with a bus that acknowledges at once, so what is timed is the relay's SQL:
 * its round trips and the work of this process and of its PostgreSQL backend.
 *
 * Prints wall time per round (p50, p99) and CPU per round of this process and of the backend (from
 * /proc, Linux). Compare two versions of the relay by running it on each, minutes apart.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { migrate, recreateDatabase } from '../stack/stack';
import { distribution } from './bench-load';
import { cpuMs } from './bench-probes';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner_relaybench';
const SCHEMA = 'withdrawals';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const rounds = option('rounds', 2000);
  const rowsPerRound = option('rows', 1);
  await recreateDatabase(DATABASE_URL);
  migrate(DATABASE_URL);
  // One connection: the relay's and the inserts' statements run on the backend measured.
  const pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
  const table = `"${SCHEMA}"."outbox_messages"`;
  const backend = Number((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const backendCpuMs = () => cpuMs(backend) ?? Number.NaN;

  let published = 0;
  const bus = { publishBatch: async (messages: unknown[]) => void (published += messages.length) } as unknown as MessageBus;
  const relay = new OutboxRelay(pool, bus, { schema: SCHEMA, pollMs: 60_000, batchSize: 500 });
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
  const backend0 = backendCpuMs();
  await run(rounds, times);
  const cpu = process.cpuUsage(cpu0);
  const backendMs = backendCpuMs() - backend0;

  await pool.end();
  const d = distribution(times);
  if (!d) throw new Error('outbox relay bench: no round was timed (rounds must be at least 1)');
  const perRound = (ms: number) => (ms / rounds).toFixed(3);
  console.log(`outbox relay: ${rounds} rounds of ${rowsPerRound} row(s), ${published} published`);
  console.log(`  drain wall ms: p50 ${d.p50.toFixed(2)} p99 ${d.p99.toFixed(2)}`);
  console.log(
    `  CPU ms per round (inserts included): this process ${perRound((cpu.user + cpu.system) / 1000)}, PostgreSQL backend ${perRound(backendMs)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
