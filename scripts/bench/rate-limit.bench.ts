/**
 * `npm run bench:rate-limit`: what the rate limit costs per request, memory store against the shared
 * PostgreSQL store (RATE_LIMIT_STORE), in one run so that the ratio means something on a noisy machine.
 * Takes go straight to the stores (no HTTP): the figure is the limiter's own cost. The PostgreSQL store
 * is measured on one partner (every take queues on one row: the worst case) and spread over 100 partners.
 *
 *   npm run bench:rate-limit                     3000 takes per case, concurrency 1,8,32
 *   npm run bench:rate-limit -- --takes 10000
 *
 * Database: partner_bench_rate_limit (dropped and migrated first). Results also go to
 * .cache/bench/rate-limit.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '@partner/config';
import { Database } from '@partner/db';
import { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { DB_SCHEMA } from '../../apps/gateway/src/database/db-schema';
import { RateLimitBucketRepository } from '../../apps/gateway/src/rate-limit/rate-limit-bucket.repository';
import { MemoryRateLimitStore, RateLimitStore } from '../../apps/gateway/src/rate-limit/rate-limit.store';
import { repoRoot } from '../lib/services';
import { migrate, recreateDatabase } from '../stack/stack';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner_bench_rate_limit';
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const TAKES = Number(arg('takes', '3000'));
const CONCURRENCY = arg('concurrency', '1,8,32').split(',').map(Number);
// Never refused: the bench measures the cost of a take, not the refusals.
const LIMIT = { perSecond: 1e9, burst: 1e9 };

interface Row {
  store: string;
  partners: number;
  concurrency: number;
  takesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function measure(store: RateLimitStore, partners: string[], concurrency: number): Promise<Omit<Row, 'store'>> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < TAKES) {
        const partner = partners[next++ % partners.length];
        const t0 = performance.now();
        const taken = await store.take(partner, LIMIT);
        latencies.push(performance.now() - t0);
        if (!taken.allowed) throw new Error('a take was refused: the bench limit is too low');
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    partners: partners.length,
    concurrency,
    takesPerSecond: Math.round(TAKES / seconds),
    p50Ms: +at(0.5).toFixed(3),
    p99Ms: +at(0.99).toFixed(3),
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
  const rows: Row[] = [];
  try {
    for (const partnerCount of [1, 100]) {
      const partners = Array.from({ length: partnerCount }, () => randomUUID());
      for (const [name, store] of stores) {
        await measure(store, partners, 8); // warm-up: connections, plans, first rows
        for (const c of CONCURRENCY) rows.push({ store: name, ...(await measure(store, partners, c)) });
      }
    }
  } finally {
    await db.close();
  }
  console.log(`rate limit: ${TAKES} takes per case`);
  console.table(rows);
  for (const partnerCount of [1, 100]) {
    for (const c of CONCURRENCY) {
      const memory = rows.find((r) => r.store === 'memory' && r.partners === partnerCount && r.concurrency === c);
      const postgres = rows.find((r) => r.store === 'postgres' && r.partners === partnerCount && r.concurrency === c);
      if (memory && postgres)
        console.log(
          `partners ${partnerCount}, concurrency ${c}: postgres p50 ${postgres.p50Ms} ms per take, ${(memory.takesPerSecond / postgres.takesPerSecond).toFixed(0)}x fewer takes/s than memory`,
        );
    }
  }
  const out = join(repoRoot(), '.cache', 'bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'rate-limit.json'), JSON.stringify({ at: new Date().toISOString(), takes: TAKES, rows }, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
