/**
 * The feed's hot read: `GET /partner/v1/events?delivered=false&limit=100` for ONE partner holding a
 * long delivered history (default 1,000,000 events) and a short undelivered backlog (50), through the
 * real gateway (HTTP → gateway → Kafka request-reply → events → PostgreSQL). The history is what makes
 * it interesting: without the partial index of undelivered events every request steps over it.
 *
 * Called by the withdrawals bench (`npm run bench -- --feed`, which passes its stack's gatewayUrl,
 * databaseUrl and adminKey), or alone against a running stack or one of its own:
 *
 *   npx tsx scripts/bench/feed.bench.ts --gateway-url http://127.0.0.1:3000 --database-url postgresql://postgres@127.0.0.1:5432/partner --admin-key adm_...
 *   npx tsx scripts/bench/feed.bench.ts --start-stack [--no-build]     (broker 27092, database partner_feedbench, gateway 27000, health 27101+)
 *   options: --events N (1000000) --undelivered N (50) --connections C (8) --seconds S (15) --warmup-seconds S (3)
 *            --rate R (none: each connection reads again as soon as answered; R: R reads a second on a schedule, up to
 *            C in flight, latency from the scheduled send, as partners' pollers read)
 *
 * Prints and returns req/s, latency p50/p90/p99/max (ms, measured by the client around each request),
 * status counts, the seeding time, and EXPLAIN ANALYZE of the events service's SQL for that partner.
 * Not a test: it never fails on numbers, only when the stack answers something wrong.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { repoRoot } from '../lib/services';
import { kafka, migrate, recreateDatabase, RunningStack, startApps } from '../stack/stack';
import { ensureHotWalletKey } from '../chain/local-chains';
import { BenchCounterparties, startBenchCounterparties } from './bench-counterparties';
import { Distribution, onSchedule, Outcome, Tally } from './bench-load';
import { buildWorkspace } from '../lib/build-stamp';

export interface FeedBenchOptions {
  gatewayUrl: string;
  databaseUrl: string;
  /** X-Admin-Key, to create the bench's partner through POST /sandbox/v1/partners. Not needed with partnerId + apiKey. */
  adminKey?: string;
  /** An existing partner to use instead (its events are kept; the seeded ones are numbered after them). */
  partnerId?: string;
  apiKey?: string;
  /** Delivered events seeded (default 1,000,000). */
  events?: number;
  /** Undelivered events seeded after them (default 50). */
  undelivered?: number;
  /** Concurrent keep-alive connections, one request in flight on each (default 8). */
  connections?: number;
  /**
   * Reads a second on a schedule (an open loop over the `connections`; a read waiting for a free one counts
   * from its scheduled time). Without it, each connection reads again as soon as it is answered (a closed
   * loop, which takes whatever the stack can give).
   */
  rate?: number;
  /** Measured run length (default 15 s), after an unmeasured warm-up (default 3 s). */
  seconds?: number;
  warmupSeconds?: number;
  /** Delete the seeded events afterwards (default false: the bench database is thrown away anyway). */
  cleanup?: boolean;
  /**
   * Called once the events are seeded, before the warm-up: what else should load the stack while the feed is
   * read (the withdrawals bench starts its open loop here, issue #27 item 3: the feed's p99 while money flows).
   */
  onSeeded?: () => void;
  /** Accepted for the withdrawals bench's context object; this run uses its own partner and load shape. */
  partnerKeys?: string[];
  requests?: number;
  concurrency?: number[];
}

export interface FeedBenchResult {
  partnerId: string;
  events: number;
  undelivered: number;
  seedMs: number;
  connections: number;
  /** The open loop's reads a second, or null for the closed loop. */
  rate: number | null;
  seconds: number;
  requests: number;
  throughput: number;
  latencyMs: Distribution | null;
  statusCounts: Record<string, number>;
  samples: string[];
  /** The events service's statement for this request, EXPLAIN (ANALYZE) on the seeded table. */
  sql: { executionMs: number; planningMs: number; index: string | null; plan: string };
}

const PATH = '/partner/v1/events?delivered=false&limit=100';

/** The same statement FeedEventRepository.list sends for delivered=false without type (keep in step). */
const LIST_SQL = `SELECT id::text AS id, sequence, type, state, resource_id, occurred_at, data, delivered_at
  FROM events.feed_events
  WHERE partner_id = $1::uuid AND delivered_at IS NULL AND sequence > $2::bigint
  ORDER BY sequence LIMIT $3::int`;

interface Answer {
  status: number;
  body: string;
}

function get(agent: Agent, url: URL, apiKey: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'x-api-key': apiKey } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A partner of the bench's own, with a rate limit far above the load (the limit is not what is measured). */
async function createPartner(gatewayUrl: string, adminKey: string): Promise<{ partnerId: string; apiKey: string }> {
  const res = await fetch(`${gatewayUrl}/sandbox/v1/partners`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-key': adminKey },
    body: JSON.stringify({ name: 'feed bench', rate_limit_per_second: 1_000_000, rate_limit_burst: 1_000_000 }),
  });
  const body = (await res.json()) as { id?: string; api_key?: string };
  if (res.status !== 201 || !body.id || !body.api_key) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(body)}`);
  return { partnerId: body.id, apiKey: body.api_key };
}

/**
 * One INSERT ... SELECT generate_series: `delivered` delivered events then `undelivered` undelivered
 * ones, numbered after the partner's last sequence, with the counter moved past them in the same
 * transaction (its row locked first, as the projection does, so a concurrent projection waits).
 */
async function seed(db: Client, partnerId: string, delivered: number, undelivered: number): Promise<number> {
  const started = performance.now();
  await db.query('BEGIN');
  try {
    const { rows } = await db.query<{ last: string }>(
      `INSERT INTO events.partner_sequences (partner_id, last_sequence) VALUES ($1::uuid, 0)
       ON CONFLICT (partner_id) DO UPDATE SET last_sequence = events.partner_sequences.last_sequence
       RETURNING last_sequence::text AS last`,
      [partnerId],
    );
    const base = BigInt(rows[0].last);
    const total = delivered + undelivered;
    await db.query(
      `INSERT INTO events.feed_events (id, partner_id, sequence, type, state, resource_id, occurred_at, data, delivered_at)
       SELECT gen_random_uuid(), $1::uuid, $2::bigint + g, 'usdt_withdrawal', 'settled', (1000000000 + g)::text,
              now() - make_interval(secs => $3::int - g),
              jsonb_build_object('id', 1000000000 + g, 'status', 'settled', 'usdtmicros', 1000000, 'network', 'MATIC'),
              CASE WHEN g <= $4::int THEN now() END
       FROM generate_series(1, $3::int) AS g`,
      [partnerId, base.toString(), total, delivered],
    );
    await db.query('UPDATE events.partner_sequences SET last_sequence = $2::bigint WHERE partner_id = $1::uuid', [
      partnerId,
      (base + BigInt(total)).toString(),
    ]);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
  // The state autovacuum reaches a little later (fresh statistics, visibility map set, hint bits
  // written): the run then measures the steady-state read, not autovacuum's first pass over a
  // million new rows running beside it.
  await db.query('VACUUM (ANALYZE) events.feed_events');
  return Math.round(performance.now() - started);
}

async function explain(db: Client, partnerId: string): Promise<FeedBenchResult['sql']> {
  await db.query(`EXPLAIN (ANALYZE) ${LIST_SQL}`, [partnerId, 0, 100]); // warm the cache, as the load will have
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${LIST_SQL}`, [partnerId, 0, 100]);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const num = (re: RegExp) => Number(re.exec(plan)?.[1] ?? NaN);
  return {
    executionMs: num(/Execution Time: ([\d.]+) ms/),
    planningMs: num(/Planning Time: ([\d.]+) ms/),
    index: /Index (?:Only )?Scan(?: Backward)? using (\S+)/.exec(plan)?.[1] ?? null,
    plan,
  };
}

/** One read and its outcome, its latency counted from `since` (the send, or its scheduled time). */
async function read(agent: Agent, url: URL, apiKey: string, check: (a: Answer) => string | null, since: number): Promise<Outcome> {
  try {
    const answer = await get(agent, url, apiKey);
    const problem = check(answer);
    if (problem === null) return { status: String(answer.status), latency: performance.now() - since };
    return { status: `wrong:${answer.status}`, latency: performance.now() - since, sample: problem };
  } catch (error) {
    return { status: `error:${(error as Error).message}`, latency: performance.now() - since };
  }
}

/** `connections` workers, each sending its next GET when the previous one answered, until `until`. */
async function drive(agent: Agent, url: URL, apiKey: string, connections: number, until: number, check: (a: Answer) => string | null) {
  const tally = new Tally();
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < until) tally.add(await read(agent, url, apiKey, check, performance.now()));
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return tally.result(tally.latencies.length, started);
}

/** Reads at `rate` a second on a schedule until `until`, at most `connections` in flight (the agent queues the rest). */
async function driveAtRate(agent: Agent, url: URL, apiKey: string, rate: number, until: number, check: (a: Answer) => string | null) {
  const tally = new Tally();
  const total = Math.max(1, Math.ceil(((until - performance.now()) * rate) / 1000));
  const { sent, started } = await onSchedule(
    rate,
    total,
    () => false,
    async (_i, scheduled) => tally.add(await read(agent, url, apiKey, check, scheduled)),
  );
  return tally.result(sent, started);
}

export async function runFeedBench(options: FeedBenchOptions): Promise<FeedBenchResult> {
  const events = options.events ?? 1_000_000;
  const undelivered = options.undelivered ?? 50;
  const connections = options.connections ?? 8;
  const seconds = options.seconds ?? 15;
  const warmupSeconds = options.warmupSeconds ?? 3;
  const gatewayUrl = options.gatewayUrl.replace(/\/$/, '');

  let partnerId = options.partnerId;
  let apiKey = options.apiKey;
  if (!partnerId || !apiKey) {
    if (!options.adminKey) throw new Error('runFeedBench needs adminKey, or partnerId and apiKey');
    ({ partnerId, apiKey } = await createPartner(gatewayUrl, options.adminKey));
  }
  const key = apiKey;

  const db = new Client({ connectionString: options.databaseUrl });
  await db.connect();
  try {
    console.log(`feed bench: seeding partner ${partnerId} with ${events} delivered + ${undelivered} undelivered events...`);
    const seedMs = await seed(db, partnerId, events, undelivered);
    console.log(`  seeded in ${(seedMs / 1000).toFixed(1)} s`);
    options.onSeeded?.();

    const url = new URL(`${gatewayUrl}${PATH}`);
    const expected = Math.min(100, undelivered);
    // Every answer must be the backlog itself: right count, all undelivered, in sequence order.
    const check = (a: Answer): string | null => {
      if (a.status !== 200) return `${a.status} ${a.body.slice(0, 200)}`;
      const body = JSON.parse(a.body) as { events: Array<{ delivered: boolean; sequence: number }> };
      const ordered = body.events.every((e, i) => !e.delivered && (i === 0 || e.sequence > body.events[i - 1].sequence));
      return body.events.length === expected && ordered
        ? null
        : `wrong page: ${body.events.length} events (expected ${expected} undelivered, in order)`;
    };
    const agent = new Agent({ keepAlive: true, maxSockets: connections });
    try {
      const first = await get(agent, url, key);
      const problem = check(first);
      if (problem) throw new Error(`GET ${PATH}: ${problem}`);

      const rate = options.rate;
      const load = (until: number) =>
        rate === undefined ? drive(agent, url, key, connections, until, check) : driveAtRate(agent, url, key, rate, until, check);
      await load(performance.now() + warmupSeconds * 1000);
      const run = await load(performance.now() + seconds * 1000);
      const sql = await explain(db, partnerId);
      const result: FeedBenchResult = {
        partnerId,
        events,
        undelivered,
        seedMs,
        connections,
        rate: rate ?? null,
        seconds,
        requests: run.requests,
        throughput: run.throughput,
        latencyMs: run.latencyMs,
        statusCounts: run.statusCounts,
        samples: run.non2xxSamples,
        sql,
      };
      print(result);
      return result;
    } finally {
      agent.destroy();
      if (options.cleanup) await db.query('DELETE FROM events.feed_events WHERE partner_id = $1::uuid', [partnerId]);
    }
  } finally {
    await db.end();
  }
}

function print(r: FeedBenchResult): void {
  const l = r.latencyMs;
  console.log(`\nFEED READ  GET ${PATH}, one partner with ${r.events} delivered + ${r.undelivered} undelivered events`);
  console.log(
    `  ${r.rate === null ? `${r.connections} connections, each reading again when answered` : `${r.rate} reads/s on a schedule over ${r.connections} connections`}, ${r.seconds} s: ${r.requests} requests, ${r.throughput} req/s`,
  );
  console.log(`  latency ms: p50 ${l?.p50} p90 ${l?.p90} p99 ${l?.p99} max ${l?.max}`);
  console.log(
    `  status: ${Object.entries(r.statusCounts)
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ')}`,
  );
  for (const s of r.samples) console.log(`  sample: ${s}`);
  console.log(`  events SQL: ${r.sql.executionMs} ms execution, ${r.sql.planningMs} ms planning, index ${r.sql.index ?? 'none'}`);
}

// ------------------------------------------------------------------------------ run on its own
function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const num = (name: string) => (flag(argv, name) === undefined ? undefined : Number(flag(argv, name)));
  const shape = {
    events: num('events'),
    undelivered: num('undelivered'),
    connections: num('connections'),
    seconds: num('seconds'),
    warmupSeconds: num('warmup-seconds'),
    rate: num('rate'),
  };
  if (!argv.includes('--start-stack')) {
    const gatewayUrl = flag(argv, 'gateway-url') ?? process.env.GATEWAY_URL;
    const databaseUrl = flag(argv, 'database-url') ?? process.env.DATABASE_URL;
    if (!gatewayUrl || !databaseUrl) throw new Error('give --gateway-url and --database-url (or --start-stack)');
    await runFeedBench({ gatewayUrl, databaseUrl, adminKey: flag(argv, 'admin-key') ?? process.env.ADMIN_API_KEY, ...shape });
    return;
  }
  // A stack of its own, on ports and a database nobody else uses; stopped at the end, also on error.
  const root = repoRoot();
  // Below Linux's ephemeral range (32768-60999): on a busy machine an outgoing connection took 33104 once.
  const kafkaPort = 27092;
  const databaseUrl = 'postgresql://postgres@127.0.0.1:5432/partner_feedbench';
  const adminKey = `adm_feedbench_${randomBytes(18).toString('base64url')}`;
  kafka('start', kafkaPort);
  let stack: RunningStack | undefined;
  let counterparties: BenchCounterparties | undefined;
  try {
    // pix-keys' DICT test server and the owner notifier's sinks (bench-counterparties.ts); no chain: the feed's
    // withdrawals are never paid (PAYOUTS_ENABLED=false), but the service reads its hot wallet's key at start.
    counterparties = await startBenchCounterparties('feed');
    const hotWallet = ensureHotWalletKey(join(root, '.cache', 'feed-bench', 'hot-wallet.key'));
    await recreateDatabase(databaseUrl);
    migrate(databaseUrl);
    if (!argv.includes('--no-build')) buildWorkspace(root);
    stack = await startApps({
      kafkaPort,
      databaseUrl,
      gatewayPort: 27000,
      healthPortBase: 27100,
      logDir: join(root, '.cache', 'feed-bench', 'logs'),
      env: {
        SANDBOX: 'true',
        ADMIN_API_KEY: adminKey,
        LOG_LEVEL: 'warn',
        PAYOUTS_ENABLED: 'false',
        HOT_WALLET_SIGNER: 'key-file',
        HOT_WALLET_KEY_FILE: hotWallet.keyFile,
        ...counterparties.env,
      },
    });
    await runFeedBench({ gatewayUrl: stack.gatewayUrl, databaseUrl, adminKey, ...shape });
  } finally {
    await stack?.stop();
    kafka('stop', kafkaPort);
    await counterparties?.stop();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`feed bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
