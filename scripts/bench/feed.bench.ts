/**
 * The feed's hot read for ONE partner with a long delivered history and a short undelivered backlog, through the
 * real gateway: `npm run bench -- --feed` (or `--runs feed-load`), or against a running stack
 * (docs/benchmarks/the-benches.md, "Feed read"). Fails only on a wrong answer, never on numbers.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { Bench, cli, closedLoop, LoadClient, number, openLoop, Outcome, sandboxPartner, text } from './harness';

export interface FeedBenchOptions {
  gatewayUrl: string;
  databaseUrl: string;
  /** X-Admin-Key, to create the bench's partner. */
  adminKey: string;
  events?: number;
  undelivered?: number;
  /** Keep-alive connections, one request in flight on each (default 8). */
  connections?: number;
  /** Reads a second on a schedule (latency from the scheduled send); without it each connection reads again when answered. */
  rate?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** Called once the events are seeded, before the warm-up: what else should load the stack meanwhile. */
  onSeeded?: () => void;
}

export type FeedBenchResult = Awaited<ReturnType<typeof runFeedBench>>;

const PATH = '/partner/v1/events?delivered=false&limit=100';

/** The statement FeedEventRepository.list sends for delivered=false without type (keep in step). */
const LIST_SQL = `SELECT id::text AS id, sequence, type, state, resource_id, occurred_at, data, delivered_at
  FROM events.feed_events
  WHERE partner_id = $1::uuid AND delivered_at IS NULL AND sequence > $2::bigint
  ORDER BY sequence LIMIT $3::int`;

/** `delivered` then `undelivered` events numbered after the partner's last sequence, its counter moved past them in the same statement (row locked first, as the projection does). */
async function seed(db: Client, partnerId: string, delivered: number, undelivered: number): Promise<number> {
  const started = performance.now();
  await db.query(
    `WITH counter AS (
       INSERT INTO events.partner_sequences AS s (partner_id, last_sequence) VALUES ($1::uuid, $2::int)
       ON CONFLICT (partner_id) DO UPDATE SET last_sequence = s.last_sequence + $2::int
       RETURNING last_sequence - $2::int AS base)
     INSERT INTO events.feed_events (id, partner_id, sequence, type, state, resource_id, occurred_at, data, delivered_at)
     SELECT gen_random_uuid(), $1::uuid, counter.base + g, 'usdt_withdrawal', 'settled', (1000000000 + g)::text,
            now() - make_interval(secs => $2::int - g),
            jsonb_build_object('id', 1000000000 + g, 'status', 'settled', 'usdtmicros', 1000000, 'network', 'MATIC'),
            CASE WHEN g <= $3::int THEN now() END
     FROM counter, generate_series(1, $2::int) AS g`,
    [partnerId, delivered + undelivered, delivered],
  );
  // What autovacuum reaches a little later (statistics, visibility map, hint bits): the steady-state read is measured.
  await db.query('VACUUM (ANALYZE) events.feed_events');
  return Math.round(performance.now() - started);
}

async function explain(db: Client, partnerId: string) {
  await db.query(`EXPLAIN (ANALYZE) ${LIST_SQL}`, [partnerId, 0, 100]); // the cache warm, as the load leaves it
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${LIST_SQL}`, [partnerId, 0, 100]);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const ms = (re: RegExp) => Number(re.exec(plan)?.[1] ?? NaN);
  const index = /Index (?:Only )?Scan(?: Backward)? using (\S+)/.exec(plan)?.[1] ?? null;
  return { executionMs: ms(/Execution Time: ([\d.]+) ms/), planningMs: ms(/Planning Time: ([\d.]+) ms/), index, plan };
}

export async function runFeedBench(options: FeedBenchOptions) {
  const { events = 1_000_000, undelivered = 50, connections = 8, seconds = 15, warmupSeconds = 3, rate } = options;
  const partner = await sandboxPartner(options.gatewayUrl, options.adminKey, 'feed bench');
  const db = new Client({ connectionString: options.databaseUrl });
  await db.connect();
  try {
    console.log(`feed bench: seeding partner ${partner.id} with ${events} delivered + ${undelivered} undelivered events...`);
    const seedMs = await seed(db, partner.id, events, undelivered);
    console.log(`  seeded in ${(seedMs / 1000).toFixed(1)} s`);
    options.onSeeded?.();
    const api = new LoadClient(options.gatewayUrl, partner.key, connections);
    const expected = Math.min(100, undelivered);
    // Every answer must be the backlog itself: right count, all undelivered, in sequence order.
    const read = async (since: number): Promise<Outcome> => {
      const answer = (status: string, sample?: string) => ({ status, latency: performance.now() - since, sample });
      try {
        const { status, text } = await api.send('GET', PATH);
        if (status !== 200) return answer(`wrong:${status}`, `${status} ${text.slice(0, 200)}`);
        const page = (JSON.parse(text) as { events: Array<{ delivered: boolean; sequence: number }> }).events;
        const ordered = page.every((e, i) => !e.delivered && (i === 0 || e.sequence > page[i - 1].sequence));
        if (page.length === expected && ordered) return answer('200');
        return answer('wrong:200', `wrong page: ${page.length} events (expected ${expected} undelivered, in order)`);
      } catch (error) {
        return answer(`error:${(error as Error).message}`);
      }
    };
    const first = await read(performance.now());
    if (first.sample) throw new Error(`GET ${PATH}: ${first.sample}`);
    const send = (_i: number, since: number) => read(since);
    const load = async (s: number) => {
      const until = performance.now() + s * 1000;
      if (rate === undefined) return closedLoop(Infinity, connections, send, () => performance.now() >= until);
      return openLoop(rate, s, send, () => false);
    };
    await load(warmupSeconds);
    const run = await load(seconds);
    const { requests, throughput, latencyMs, statusCounts, non2xxSamples: samples } = run;
    const given = { partnerId: partner.id, events, undelivered, seedMs, connections, rate: rate ?? null, seconds };
    // sql: the events service's statement, EXPLAIN (ANALYZE) on the seeded table.
    const result = { ...given, requests, throughput, latencyMs, statusCounts, samples, sql: await explain(db, partner.id) };
    const l = result.latencyMs;
    console.log(`\nFEED READ  GET ${PATH}, one partner with ${events} delivered + ${undelivered} undelivered events`);
    const shape =
      rate === undefined
        ? `${connections} connections, each reading again when answered`
        : `${rate} reads/s on a schedule over ${connections} connections`;
    console.log(`  ${shape}, ${seconds} s: ${result.requests} requests, ${result.throughput} req/s`);
    console.log(`  latency ms: p50 ${l?.p50} p90 ${l?.p90} p99 ${l?.p99} max ${l?.max}`);
    const statuses = Object.entries(result.statusCounts).map(([k, v]) => `${k} ×${v}`);
    console.log(`  status: ${statuses.join(', ')}`);
    for (const s of result.samples) console.log(`  sample: ${s}`);
    console.log(
      `  events SQL: ${result.sql.executionMs} ms execution, ${result.sql.planningMs} ms planning, index ${result.sql.index ?? 'none'}`,
    );
    return result;
  } finally {
    await db.end();
  }
}

if (require.main === module) {
  const f = cli('npx tsx scripts/bench/feed.bench.ts --gateway-url URL --database-url URL --admin-key KEY [flags]', {
    'gateway-url': text(undefined, 'GATEWAY_URL', 'URL'),
    'database-url': text(undefined, 'DATABASE_URL', 'URL'),
    'admin-key': text(undefined, 'ADMIN_API_KEY', 'KEY'),
    events: number(undefined),
    undelivered: number(undefined),
    connections: number(undefined, 1),
    seconds: number(undefined, 1),
    'warmup-seconds': number(undefined),
    rate: number(undefined, 0.1, undefined, false),
  });
  const { gatewayUrl, databaseUrl, adminKey, ...shape } = f;
  if (!gatewayUrl || !databaseUrl || !adminKey)
    throw new Error('give --gateway-url, --database-url and --admin-key (a stack of its own: npm run bench -- --runs feed)');
  new Bench('feed').run(() =>
    runFeedBench({ gatewayUrl: gatewayUrl.replace(/\/$/, ''), databaseUrl, adminKey, ...shape }).then(() => undefined),
  );
}
