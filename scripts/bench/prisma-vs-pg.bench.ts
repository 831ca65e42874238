/**
 * `npm run bench:prisma`: Prisma Client against the prepared pg statement the services use (ADR 0021): one
 * withdrawal by partner and id, N reads each in alternating rounds, and each one's resident memory. Generates
 * the withdrawals client first (scripts/db/generate.ts: nothing else needs one).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { repoRoot } from '../lib/services';
import { recreateDatabase } from '../stack/stack';
import { Bench } from './harness';

const DATABASE_URL = process.env.PRISMA_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_prisma';
const N = Number(process.env.PRISMA_BENCH_QUERIES ?? 3000);
const ROUNDS = 4;
/** What this bench calls on the generated client: it exists only once generated, so it is typed here. */
interface WithdrawalsClient {
  withdrawal: { findFirst(args: { where: { partnerId: string; id: number } }): Promise<unknown> };
  $disconnect(): Promise<void>;
}
type ClientClass = new (options: { adapter: PrismaPg }) => WithdrawalsClient;

const rssMb = () => Math.round(process.memoryUsage().rss / 1048576);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const root = repoRoot();
  await recreateDatabase(DATABASE_URL);
  const tsx = (script: string, env = process.env) =>
    execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, script), 'withdrawals'], { env, stdio: 'ignore' });
  tsx('scripts/db/migrate.ts', { ...process.env, DATABASE_URL });
  tsx('scripts/db/generate.ts');
  const { PrismaClient } = (await import(join(root, '.cache/prisma-client/withdrawals/client.ts'))) as { PrismaClient: ClientClass };

  const rssStart = rssMb();
  const pool = new Pool({ connectionString: DATABASE_URL, max: 4, options: '-c search_path=withdrawals' });
  const partner = randomUUID();
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO withdrawals (partner_id, document, idempotency_key, fingerprint, address, network, fee_choice, amount_micros, fee_micros, state)
     SELECT $1, '12345678909', gen_random_uuid(), repeat('a', 64), '0x' || repeat('b', 40), 'polygon', 'low', 1000000, 20000, 'created' FROM generate_series(1, 1000) RETURNING id`,
    [partner],
  );
  const ids = rows.map((r) => r.id);
  const text =
    'SELECT id, partner_id, document, address, network, fee_choice, amount_micros, fee_micros, state, tx_hash, failure_reason, created_at FROM withdrawals WHERE partner_id = $1 AND id = $2';
  const viaPg = async (id: number) => (await pool.query({ name: 'bench_withdrawal_by_id', text, values: [partner, id] })).rows[0];
  await viaPg(ids[0]);
  const rssPg = rssMb();

  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: DATABASE_URL, max: 4 }, { schema: 'withdrawals' }) });
  const viaPrisma = (id: number) => prisma.withdrawal.findFirst({ where: { partnerId: partner, id } });
  await viaPrisma(ids[0]);
  const rssPrisma = rssMb();

  const time = async (fn: (id: number) => Promise<unknown>) => {
    const lat: number[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const s = performance.now();
      await fn(ids[i % ids.length]);
      lat.push(performance.now() - s);
    }
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { perSec: (N / wall) * 1000, p50: pct(lat, 50), p99: pct(lat, 99), cpuMs: (cpu.user + cpu.system) / 1000 / N };
  };
  const results: Record<'pg' | 'prisma', Awaited<ReturnType<typeof time>>[]> = { pg: [], prisma: [] };
  for (let r = 0; r < ROUNDS; r++) {
    results.pg.push(await time(viaPg));
    results.prisma.push(await time(viaPrisma));
  }
  const median = (xs: number[]) => pct(xs, 50);
  console.log(`${N} reads per round, ${ROUNDS} rounds alternating; medians of the rounds (node ${process.version})`);
  for (const k of ['pg', 'prisma'] as const) {
    const rs = results[k];
    console.log(
      `  ${k.padEnd(6)} ${median(rs.map((x) => x.perSec)).toFixed(0)} reads/s, p50 ${median(rs.map((x) => x.p50)).toFixed(3)} ms, p99 ${median(rs.map((x) => x.p99)).toFixed(3)} ms, ` +
        `client CPU ${median(rs.map((x) => x.cpuMs)).toFixed(3)} ms per read`,
    );
  }
  console.log(
    `  RSS: ${rssStart} MB at start, ${rssPg} MB with pg and a first read, ${rssPrisma} MB with Prisma Client and a first read (+${rssPrisma - rssPg} MB)`,
  );
  await prisma.$disconnect();
  await pool.end();
}

new Bench('prisma bench').run(main);
