/**
 * The outbox relay's own cost per round: K rows into the withdrawals service's real outbox, drained through
 * `OutboxRelay` with a bus that acknowledges at once (docs/benchmarks/the-benches.md, "The others").
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { migrate, recreateDatabase } from '../stack/stack';
import { Bench, cli, distribution, number } from './harness';
import { cpuMs } from './probes';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner_relaybench';

async function main(): Promise<void> {
  const { rounds, rows: rowsPerRound } = cli('npx tsx scripts/bench/outbox-relay.bench.ts [flags]', {
    rounds: number(2000, 1),
    rows: number(1, 1),
  });
  await recreateDatabase(DATABASE_URL);
  migrate(DATABASE_URL);
  // One connection: the relay's and the inserts' statements run on the backend measured.
  const pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
  const backend = Number((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  let published = 0;
  const bus = { publishBatch: async (messages: unknown[]) => void (published += messages.length) } as unknown as MessageBus;
  const relay = new OutboxRelay(pool, bus, { schema: 'withdrawals', pollMs: 60_000, batchSize: 500 });
  const insert = `INSERT INTO withdrawals.outbox_messages (topic, key, payload) SELECT 'bench.topic', 'k' || g, '{"n":1}'::jsonb FROM generate_series(1, ${rowsPerRound}) g`;
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
  const [cpu0, backend0] = [process.cpuUsage(), cpuMs(backend) ?? NaN];
  await run(rounds, times);
  const [cpu, backendMs] = [process.cpuUsage(cpu0), (cpuMs(backend) ?? NaN) - backend0];
  await pool.end();
  const d = distribution(times);
  const perRound = (ms: number) => (ms / rounds).toFixed(3);
  console.log(`outbox relay: ${rounds} rounds of ${rowsPerRound} row(s), ${published} published`);
  console.log(`  drain wall ms: p50 ${d?.p50.toFixed(2)} p99 ${d?.p99.toFixed(2)}`);
  console.log(
    `  CPU ms per round (inserts included): this process ${perRound((cpu.user + cpu.system) / 1000)}, PostgreSQL backend ${perRound(backendMs)}`,
  );
}

new Bench('outbox relay bench').run(main);
