/**
 * `npm run bench:rate-limit`: the rate limit's cost per take, memory store against the PostgreSQL store, straight
 * to the stores, on one partner (one row) and on 100 (docs/benchmarks/the-benches.md, "The others").
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '@partner/config';
import { Database } from '@partner/db';
import { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { DB_SCHEMA } from '../../apps/gateway/src/database/db-schema';
import { RateLimitBucketRepository } from '../../apps/gateway/src/rate-limit/rate-limit-bucket.repository';
import { MemoryRateLimitStore, RateLimitStore } from '../../apps/gateway/src/rate-limit/rate-limit.store';
import { migrate, recreateDatabase } from '../stack/stack';
import { Bench, cli, distribution, number, numbers, writeResults } from './harness';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner_bench_rate_limit';
const { takes: TAKES, concurrency: CONCURRENCY } = cli('npm run bench:rate-limit -- [flags]', {
  takes: number(3000, 1),
  concurrency: numbers('1,8,32', 1),
});
// Never refused: the bench measures the cost of a take, not the refusals.
const LIMIT = { perSecond: 1e9, burst: 1e9 };

async function measure(store: RateLimitStore, partners: string[], concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < TAKES) {
      const partner = partners[next++ % partners.length];
      const t0 = performance.now();
      if (!(await store.take(partner, LIMIT)).allowed) throw new Error('a take was refused: the bench limit is too low');
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const d = distribution(latencies, 3);
  return {
    partners: partners.length,
    concurrency,
    takesPerSecond: Math.round(TAKES / ((performance.now() - started) / 1000)),
    p50Ms: d?.p50,
    p99Ms: d?.p99,
  };
}

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  migrate(DATABASE_URL);
  const db = new Database(loadConfig(GatewayConfig, { ...process.env, DATABASE_URL, KAFKA_BROKERS: '127.0.0.1:1' }), DB_SCHEMA);
  const stores: Array<[string, RateLimitStore]> = [
    ['memory', new MemoryRateLimitStore()],
    ['postgres', new RateLimitBucketRepository(db)],
  ];
  const rows: Array<{ store: string } & Awaited<ReturnType<typeof measure>>> = [];
  try {
    for (const partnerCount of [1, 100]) {
      const partners = Array.from({ length: partnerCount }, () => randomUUID());
      for (const [store, s] of stores) {
        await measure(s, partners, 8); // warm-up: connections, plans, first rows
        for (const c of CONCURRENCY) rows.push({ store, ...(await measure(s, partners, c)) });
      }
    }
  } finally {
    await db.close();
  }
  console.log(`rate limit: ${TAKES} takes per case`);
  console.table(rows);
  for (const partners of [1, 100])
    for (const c of CONCURRENCY) {
      const [memory, postgres] = ['memory', 'postgres'].map((s) =>
        rows.find((r) => r.store === s && r.partners === partners && r.concurrency === c),
      );
      if (memory && postgres)
        console.log(
          `partners ${partners}, concurrency ${c}: postgres p50 ${postgres.p50Ms} ms per take, ${(memory.takesPerSecond / postgres.takesPerSecond).toFixed(0)}x fewer takes/s than memory`,
        );
    }
  writeResults('rate-limit.json', { at: new Date().toISOString(), takes: TAKES, rows });
}

new Bench('rate limit bench').run(main);
