/**
 * `npm run bench:lists` (or `npm run bench -- --lists`): the partner lists (GET /partner/v1/withdrawals/usdt,
 * /pix-key, /customers/business) at a million rows of ONE partner each, through the whole stack (HTTP →
 * gateway → Kafka request-reply → service → PostgreSQL). Not a test: it prints numbers and plans. See
 * README.md next to this file and docs/benchmarks/2026-11-26-lists-at-a-million-rows.md.
 *
 *   npm run bench:lists
 *   npm run bench:lists -- --no-build --rows 200000 --samples 100       (quick)
 *
 * Options: --rows N (rows per list, default 1000000), --samples N (timed requests per case, default 200,
 * after 20 unmeasured), --limit N (page size, default 100), --no-build.
 * Ports and database (environment; never the dev ones): LISTS_BENCH_KAFKA_PORT (29192),
 * LISTS_BENCH_DATABASE_URL (partner_bench_lists, dropped first), LISTS_BENCH_GATEWAY_PORT (25000),
 * LISTS_BENCH_HEALTH_PORT_BASE (25100), LISTS_BENCH_CHAIN_PORT_ETH / _MATIC (25545 / 25546: local chains of its
 * own, fresh). Results: .cache/bench/lists.json; app logs in .cache/bench/lists-logs.
 *
 * The rows are written straight into the owning schemas with generate_series (the services' own tables,
 * as their statements would leave them); the payout rounds are off (PAYOUTS_ENABLED=false: they would sign
 * and pay the generated open withdrawals) and the DICT is set an hour away, so nothing moves them.
 * Each case is a first page and a deep one (the page after 90 % of the matching rows, its cursor made for
 * that position), timed over HTTP, and the statement the service runs for it is EXPLAINed with the plan a
 * prepared statement settles on (plan_cache_mode = force_generic_plan), to show which index it reads.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { authenticatedPartnerId, BUSINESS_CUSTOMER_EXAMPLE, encodeListCursor, listScope } from '../../libs/contracts/src';
import { keysetPageStatement } from '../../libs/db/src/lib/keyset-page';
import { ApiClient, newCpf } from '../../libs/testing/src';
import { repoRoot } from '../lib/services';
import { kafka, migrate, recreateDatabase, RunningStack, startApps } from '../stack/stack';
import { chainAppEnv, DEV_BLOCK_TIME_MS, DEV_CHAIN_TIMINGS } from '../chain/chain-env';
import { ChainPorts, ensureHotWalletKey, ensureLocalChains, stopLocalChains } from '../chain/local-chains';
import { BenchCounterparties, startBenchCounterparties } from './bench-counterparties';
import { buildWorkspace } from '../lib/build-stamp';

const root = repoRoot();
const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROWS = Number(flag('rows', '1000000'));
const SAMPLES = Number(flag('samples', '200'));
const LIMIT = Number(flag('limit', '100'));
const WARMUP = 20;
const KAFKA_PORT = Number(process.env.LISTS_BENCH_KAFKA_PORT ?? 29192);
const DATABASE_URL = process.env.LISTS_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_lists';
const GATEWAY_PORT = Number(process.env.LISTS_BENCH_GATEWAY_PORT ?? 25000);
const HEALTH_PORT_BASE = Number(process.env.LISTS_BENCH_HEALTH_PORT_BASE ?? 25100);
const CHAIN_PORTS: ChainPorts = {
  ETH: Number(process.env.LISTS_BENCH_CHAIN_PORT_ETH ?? 25545),
  MATIC: Number(process.env.LISTS_BENCH_CHAIN_PORT_MATIC ?? 25546),
};
const OUT_DIR = join(root, '.cache', 'bench');
const LOG_DIR = join(OUT_DIR, 'lists-logs');
/** How many users the withdrawals belong to (1,000 each), and how many customers share an external_id. */
const GROUPS = 1000;

/** One list's table and how its service pages it (the same builder the repository calls). */
interface ListSpec {
  name: 'withdrawals' | 'pix_keys' | 'business_customers';
  path: string;
  items: string;
  schema: string;
  table: string;
  idType: 'bigint' | 'uuid';
  /** The scope filters of the use case, in its order, from a case's query. */
  scopeOf: (q: Record<string, string>) => (string | number | undefined)[];
  /** The repository's equality filters (column → value) from a case's query. */
  equalsOf: (q: Record<string, string>) => Record<string, string | undefined>;
}

const LISTS: Record<ListSpec['name'], ListSpec> = {
  withdrawals: {
    name: 'withdrawals',
    path: '/partner/v1/withdrawals/usdt',
    items: 'withdrawals',
    schema: 'withdrawals',
    table: 'withdrawals',
    idType: 'bigint',
    scopeOf: (q) => [q.document, q.state, ms(q.created_from), ms(q.created_to)],
    equalsOf: (q) => ({ document: q.document, state: q.state }),
  },
  pix_keys: {
    name: 'pix_keys',
    path: '/partner/v1/pix-key',
    items: 'pix_keys',
    schema: 'pix_keys',
    table: 'pix_keys',
    idType: 'uuid',
    scopeOf: (q) => [q.status, q.document],
    equalsOf: (q) => ({ state: q.status, document: q.document }),
  },
  business_customers: {
    name: 'business_customers',
    path: '/partner/v1/customers/business',
    items: 'customers',
    schema: 'customers',
    table: 'customers',
    idType: 'uuid',
    scopeOf: (q) => [q.cnpj, q.external_id],
    equalsOf: (q) => ({ cnpj: q.cnpj, external_id: q.external_id }),
  },
};

const ms = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/** Fills one partner with ROWS rows of each list, straight into the owning schemas. */
async function fill(
  db: Client,
  partnerId: string,
  known: { cpfs: string[]; keyCpf: string; cnpj: string },
  base: Date,
): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  const timed = async (name: string, sql: string, values: unknown[]) => {
    const t0 = performance.now();
    await db.query(sql, values);
    took[name] = Math.round(performance.now() - t0);
  };
  // Two rows to each creation time (ties), 2 s apart: a million rows over about 11.5 days.
  await timed(
    'withdrawals',
    `INSERT INTO withdrawals.withdrawals (partner_id, document, idempotency_key, fingerprint, address, network, fee_choice, amount_micros, fee_micros, state, created_at, updated_at)
     SELECT $1, ($2::text[])[1 + i % ${GROUPS}], gen_random_uuid(), repeat('0', 64), '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 'MATIC', 'LOW', 1000000, 20000,
            CASE WHEN i % 100 = 0 THEN 'failed' WHEN i % 10 = 1 THEN 'created' WHEN i % 10 = 2 THEN 'sent' ELSE 'settled' END,
            $3::timestamptz + (i / 2) * interval '2 seconds', now()
     FROM generate_series(1, $4::int) AS i`,
    [partnerId, known.cpfs, base, ROWS],
  );
  // One key per user (the partial unique index allows one active key each); row ROWS/2 is a real CPF's.
  await timed(
    'pix_keys',
    `WITH u AS (
       INSERT INTO pix_keys.users (partner_id, document, created_at)
       SELECT $1, CASE WHEN i = $3::int / 2 THEN $2 ELSE lpad(i::text, 11, '0') END, $4::timestamptz + (i / 2) * interval '2 seconds'
       FROM generate_series(1, $3::int) AS i
       RETURNING document, created_at)
     INSERT INTO pix_keys.pix_keys (id, partner_id, document, key, state, created_at, updated_at)
     SELECT gen_random_uuid(), $1, document, document,
            (ARRAY['registered', 'canceled', 'failed', 'pending', 'deleting'])[1 + (row_number() OVER ()) % 5], created_at, now()
     FROM u`,
    [partnerId, known.keyCpf, ROWS, base],
  );
  await timed(
    'customers',
    `INSERT INTO customers.customers (id, partner_id, cnpj, legal_name, external_id, body, created_at)
     SELECT gen_random_uuid(), $1, CASE WHEN i = $3::int / 2 THEN $2 ELSE lpad(i::text, 14, '0') END, 'Acme Pagamentos Ltda', 'ext-' || (i % ${GROUPS}), $4::jsonb,
            $5::timestamptz + (i / 2) * interval '2 seconds'
     FROM generate_series(1, $3::int) AS i`,
    [partnerId, known.cnpj, ROWS, JSON.stringify(BUSINESS_CUSTOMER_EXAMPLE), base],
  );
  const t0 = performance.now();
  await db.query('ANALYZE withdrawals.withdrawals; ANALYZE pix_keys.pix_keys; ANALYZE customers.customers');
  took.analyze = Math.round(performance.now() - t0);
  return took;
}

interface Case {
  list: ListSpec;
  label: string;
  query: Record<string, string>;
}

interface CaseResult {
  list: string;
  label: string;
  depth: 'first' | 'deep';
  matching: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** p50 minus the floor's (reading one withdrawal by id through the same path, same run). */
  overFloorP50Ms: number;
  /** The generic plan's index scans and the statement's execution time in PostgreSQL. */
  plan: string[];
  sqlMs: number;
}

/** The position 90 % down the matching rows (bench-only SQL: it may OFFSET) and the number of matching rows. */
async function deepPosition(db: Client, c: Case, partnerId: string): Promise<{ matching: number; atMs: number; id: string }> {
  const equals = Object.entries(c.list.equalsOf(c.query)).filter(([, v]) => v !== undefined);
  const values: unknown[] = [
    partnerId,
    ...equals.map(([, v]) => v),
    c.query.created_from ? new Date(c.query.created_from) : '-infinity',
    c.query.created_to ? new Date(c.query.created_to) : 'infinity',
  ];
  const where = `partner_id = $1${equals.map(([k], i) => ` AND ${k} = $${i + 2}`).join('')} AND created_at >= $${equals.length + 2} AND created_at < $${equals.length + 3}`;
  const table = `${c.list.schema}.${c.list.table}`;
  const { rows: counted } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, values);
  const matching = Number(counted[0].n);
  const { rows } = await db.query<{ at: Date; id: string }>(
    `SELECT created_at AS at, id::text FROM ${table} WHERE ${where} ORDER BY created_at DESC, id DESC OFFSET $${equals.length + 4} LIMIT 1`,
    [...values, Math.max(0, Math.floor(matching * 0.9) - 1)],
  );
  // No row matches (a filter outside the rows' time span at a small --rows): no deep page, the first page only.
  return rows[0] ? { matching, atMs: rows[0].at.getTime(), id: rows[0].id } : { matching, atMs: 0, id: '0' };
}

/** The generic plan of the service's statement for this page: its index scans and its execution time. */
async function explain(
  db: Client,
  c: Case,
  partnerId: string,
  after: { atMs: number; id: string } | undefined,
): Promise<{ plan: string[]; sqlMs: number }> {
  const filter = {
    equals: c.list.equalsOf(c.query),
    createdFrom: c.query.created_from ? new Date(c.query.created_from) : undefined,
    createdTo: c.query.created_to ? new Date(c.query.created_to) : undefined,
  };
  const { statement, values } = keysetPageStatement(
    'bench',
    `${c.list.schema}.${c.list.table}`,
    c.list.idType,
    authenticatedPartnerId(partnerId),
    filter,
    { limit: LIMIT, after },
  );
  const literal = (v: unknown) => db.escapeLiteral(v instanceof Date ? v.toISOString() : String(v));
  await db.query('DEALLOCATE ALL');
  await db.query(`PREPARE bench_page AS ${statement.text}`);
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_page(${values.map(literal).join(', ')})`,
  );
  const lines = rows.map((r) => r['QUERY PLAN']);
  const plan = lines.filter((l) => /Index|Seq Scan|Sort|Bitmap/.test(l)).map((l) => l.trim().replace(/\s+\(cost=.*$/, ''));
  const sqlMs = Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? NaN);
  return { plan, sqlMs };
}

interface Timing {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** SAMPLES sequential GETs of one page (after WARMUP unmeasured ones): p50, p99, max, each answer checked. */
function time(api: ApiClient, path: string, items: string, expected: number): Promise<Timing> {
  return timeGets(api, path, (body) => (body[items] as unknown[] | undefined)?.length === expected);
}

/** SAMPLES sequential GETs of `path` (after WARMUP unmeasured ones), each answer a 200 that `ok` accepts. */
async function timeGets(api: ApiClient, path: string, ok: (body: Record<string, unknown>) => boolean): Promise<Timing> {
  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const t0 = performance.now();
    const res = await api.get<Record<string, unknown>>(path);
    const took = performance.now() - t0;
    if (res.status !== 200 || !ok(res.body))
      throw new Error(`${path}: ${res.status}, an unexpected answer: ${JSON.stringify(res.body).slice(0, 300)}`);
    if (i >= WARMUP) latencies.push(took);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100;
  return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(latencies[latencies.length - 1] * 100) / 100 };
}

async function main(): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true });
  const adminKey = `adm_bench_${randomBytes(18).toString('base64url')}`;
  console.log(
    `lists bench: ${ROWS} rows per list, ${SAMPLES} samples per case, page ${LIMIT}; ${cpus().length} cpus; gateway ${GATEWAY_PORT}, broker ${KAFKA_PORT}, ${new URL(DATABASE_URL).pathname.slice(1)}`,
  );
  if (!process.argv.includes('--no-build')) buildWorkspace(root);
  rmSync(join(root, '.cache', 'kafka', `data-${KAFKA_PORT}`), { recursive: true, force: true });
  kafka('start', KAFKA_PORT);
  let stack: RunningStack | undefined;
  let counterparties: BenchCounterparties | undefined;
  const db = new Client({ connectionString: DATABASE_URL });
  try {
    // The withdrawals service checks its chains at start (chain id, token): nodes of this bench's own.
    const hotWallet = ensureHotWalletKey(join(OUT_DIR, 'lists-hot-wallet.key'));
    const chains = await ensureLocalChains({
      ports: CHAIN_PORTS,
      hotWallet: hotWallet.address,
      blockTimeMs: DEV_BLOCK_TIME_MS,
      fresh: true,
    });
    // pix-keys' DICT test server and the owner notifier's sinks (bench-counterparties.ts).
    counterparties = await startBenchCounterparties('lists');
    await recreateDatabase(DATABASE_URL);
    migrate(DATABASE_URL);
    // The longest the config allows: longer than the run, so no key moves meanwhile.
    const hour = String(3600 * 1000);
    stack = await startApps({
      kafkaPort: KAFKA_PORT,
      databaseUrl: DATABASE_URL,
      gatewayPort: GATEWAY_PORT,
      healthPortBase: HEALTH_PORT_BASE,
      logDir: LOG_DIR,
      env: {
        SANDBOX: 'true',
        ADMIN_API_KEY: adminKey,
        LOG_LEVEL: 'warn',
        ...chainAppEnv(chains, hotWallet.keyFile, DEV_CHAIN_TIMINGS),
        // The generated open withdrawals hold no nonce: the rounds would sign and pay them while the lists are read.
        PAYOUTS_ENABLED: 'false',
        ...counterparties.env,
        PIX_DICT_DELAY_MS: hour,
      },
    });
    const admin = new ApiClient(stack.gatewayUrl, { 'x-admin-key': adminKey });
    const partner = await admin.post<{ id: string; api_key: string }>('/sandbox/v1/partners', {
      name: 'lists bench',
      rate_limit_per_second: 1_000_000,
    });
    if (partner.status !== 201) throw new Error(`partner creation failed: ${partner.status} ${JSON.stringify(partner.body)}`);
    const partnerId = partner.body.id;
    const api = new ApiClient(stack.gatewayUrl, { 'x-api-key': partner.body.api_key });
    await db.connect();

    const known = { cpfs: Array.from({ length: GROUPS }, () => newCpf()), keyCpf: newCpf(), cnpj: generateCnpj({ version: 2 }) };
    const base = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const fillMs = await fill(db, partnerId, known, base);
    console.log(`filled in ${JSON.stringify(fillMs)} ms`);

    const day1 = new Date(base.getTime() + 5 * 24 * 3600 * 1000).toISOString();
    const day2 = new Date(base.getTime() + 6 * 24 * 3600 * 1000).toISOString();
    const cases: Case[] = [
      { list: LISTS.withdrawals, label: 'no filter', query: {} },
      { list: LISTS.withdrawals, label: 'document (1,000 rows)', query: { document: known.cpfs[7] } },
      { list: LISTS.withdrawals, label: 'state=failed (1 %)', query: { state: 'failed' } },
      { list: LISTS.withdrawals, label: 'one day (created_from/to)', query: { created_from: day1, created_to: day2 } },
      { list: LISTS.withdrawals, label: 'document + state=settled', query: { document: known.cpfs[7], state: 'settled' } },
      { list: LISTS.pix_keys, label: 'no filter', query: {} },
      { list: LISTS.pix_keys, label: 'status=registered (20 %)', query: { status: 'registered' } },
      { list: LISTS.pix_keys, label: 'document (1 row)', query: { document: known.keyCpf } },
      { list: LISTS.business_customers, label: 'no filter', query: {} },
      { list: LISTS.business_customers, label: 'external_id (1,000 rows)', query: { external_id: 'ext-7' } },
      { list: LISTS.business_customers, label: 'cnpj (1 row)', query: { cnpj: known.cnpj } },
    ];
    // The floor, measured in the same run: reading ONE withdrawal by id takes the same path (HTTP, gateway,
    // Kafka request-reply, service, one primary-key read), so a list page's cost of its own is its excess
    // over this, whatever the machine's load.
    const { rows: one } = await db.query<{ id: string }>('SELECT id::text FROM withdrawals.withdrawals WHERE partner_id = $1 LIMIT 1', [
      partnerId,
    ]);
    const floor = await timeGets(api, `/partner/v1/withdrawals/usdt/${one[0].id}`, (body) => String(body.id) === one[0].id);
    console.log(`floor: GET /partner/v1/withdrawals/usdt/{id} p50 ${floor.p50Ms.toFixed(2)} ms  p99 ${floor.p99Ms.toFixed(2)} ms`);
    const results: CaseResult[] = [];
    for (const c of cases) {
      const deep = await deepPosition(db, c, partnerId);
      const scope = listScope(c.list.name, partnerId, c.list.scopeOf(c.query));
      const pages: Array<['first' | 'deep', { atMs: number; id: string } | undefined]> = [['first', undefined]];
      if (deep.matching > LIMIT) pages.push(['deep', { atMs: deep.atMs, id: deep.id }]);
      for (const [depth, after] of pages) {
        const query = new URLSearchParams({
          ...c.query,
          limit: String(LIMIT),
          ...(after ? { cursor: encodeListCursor(after, scope) } : {}),
        });
        const remaining = after ? deep.matching - Math.max(0, Math.floor(deep.matching * 0.9)) : deep.matching;
        const timing = await time(api, `${c.list.path}?${query.toString()}`, c.list.items, Math.min(LIMIT, remaining));
        const { plan, sqlMs } = await explain(db, c, partnerId, after);
        const overFloorP50Ms = Math.round((timing.p50Ms - floor.p50Ms) * 100) / 100;
        results.push({ list: c.list.path, label: c.label, depth, matching: deep.matching, ...timing, overFloorP50Ms, plan, sqlMs });
        console.log(
          `${c.list.path.padEnd(32)} ${c.label.padEnd(28)} ${depth.padEnd(5)} ${String(deep.matching).padStart(8)} rows  p50 ${timing.p50Ms.toFixed(2).padStart(6)} ms (floor +${overFloorP50Ms.toFixed(2)})  p99 ${timing.p99Ms.toFixed(2).padStart(6)} ms  SQL ${sqlMs.toFixed(3)} ms  ${plan.join(' / ')}`,
        );
      }
    }
    const file = join(OUT_DIR, 'lists.json');
    writeFileSync(
      file,
      `${JSON.stringify({ rows: ROWS, samples: SAMPLES, limit: LIMIT, cpus: cpus().length, at: new Date().toISOString(), fillMs, floor, results }, null, 2)}\n`,
    );
    console.log(`\nresults: ${file}; app logs: ${LOG_DIR}`);
  } finally {
    await db.end().catch(() => undefined);
    await stack?.stop(10_000);
    kafka('stop', KAFKA_PORT);
    await stopLocalChains(CHAIN_PORTS).catch(() => undefined);
    await counterparties?.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`lists bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
