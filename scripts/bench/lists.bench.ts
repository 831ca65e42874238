/**
 * `npm run bench:lists`: the partner lists at a million rows of ONE partner, each case's first page and a deep
 * one timed over HTTP and EXPLAINed with the generic plan (docs/benchmarks/the-benches.md, "Lists at a million rows").
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { authenticatedPartnerId, BUSINESS_CUSTOMER_EXAMPLE, encodeListCursor, listScope } from '../../libs/contracts/src';
import { keysetPageStatement } from '../../libs/db/src/lib/keyset-page';
import { ApiClient, newCpf } from '@partner/testing';
import { DEV_BLOCK_TIME_MS, DEV_CHAIN_TIMINGS } from '../chain/chain-env';
import * as h from './harness';

const bench = new h.Bench('lists');
const flags = { rows: h.number(1_000_000, 1), samples: h.number(200, 1), limit: h.number(100, 1), 'no-build': h.flag() };
const { rows: ROWS, samples: SAMPLES, limit: LIMIT, noBuild } = h.cli('npm run bench:lists -- [flags]', flags);
const WARMUP = 20;
// The withdrawals service checks its chains at start (chain id, token): nodes of this bench's own.
const AT = h.benchPlace('LISTS_BENCH', 'lists', { kafka: 29192, gateway: 25000, health: 25100, chain: 25545 });
/** How many users the withdrawals belong to (1,000 each), and how many customers share an external_id. */
const GROUPS = 1000;

/** One list: its route, its table (`<schema>.<schema>`, named as its items) and its equality filters (column → query key). */
function list(name: 'withdrawals' | 'pix_keys' | 'business_customers', path: string, equals: Record<string, string>) {
  const schema = name === 'business_customers' ? 'customers' : name;
  const idType = name === 'withdrawals' ? ('bigint' as const) : ('uuid' as const);
  const equalsOf = (q: Record<string, string>) => Object.fromEntries(Object.entries(equals).map(([column, key]) => [column, q[key]]));
  /** The use case's scope filters, in its order. */
  const scopeOf = (q: Record<string, string>) => [
    ...Object.values(equalsOf(q)),
    ...(name === 'withdrawals' ? [ms(q.created_from), ms(q.created_to)] : []),
  ];
  return { name, path, schema, table: `${schema}.${schema}`, idType, equalsOf, scopeOf };
}
const LISTS = {
  withdrawals: list('withdrawals', '/partner/v1/withdrawals/usdt', { document: 'document', state: 'state' }),
  pix_keys: list('pix_keys', '/partner/v1/pix-key', { state: 'status', document: 'document' }),
  business_customers: list('business_customers', '/partner/v1/customers/business', { cnpj: 'cnpj', external_id: 'external_id' }),
};
type Case = { list: ReturnType<typeof list>; label: string; query: Record<string, string> };

const ms = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/** ROWS rows of each list for one partner, straight into the owning schemas; two rows to each creation time, 2 s apart. */
async function fill(
  db: Client,
  partnerId: string,
  known: { cpfs: string[]; keyCpf: string; cnpj: string },
  base: Date,
): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  const timed = (name: string, sql: string, values: unknown[]) => h.timed(took, name, () => db.query(sql, values));
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
  await timed('analyze', 'ANALYZE withdrawals.withdrawals; ANALYZE pix_keys.pix_keys; ANALYZE customers.customers', []);
  return took;
}

/** The position 90 % down the matching rows (bench-only SQL: it may OFFSET) and how many match. */
async function deepPosition(db: Client, c: Case, partnerId: string): Promise<{ matching: number; atMs: number; id: string }> {
  const equals = Object.entries(c.list.equalsOf(c.query)).filter(([, v]) => v !== undefined);
  const values: unknown[] = [
    partnerId,
    ...equals.map(([, v]) => v),
    c.query.created_from ? new Date(c.query.created_from) : '-infinity',
    c.query.created_to ? new Date(c.query.created_to) : 'infinity',
  ];
  const where = `partner_id = $1${equals.map(([k], i) => ` AND ${k} = $${i + 2}`).join('')} AND created_at >= $${equals.length + 2} AND created_at < $${equals.length + 3}`;
  const table = c.list.table;
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
async function explain(db: Client, c: Case, partnerId: string, after: { atMs: number; id: string } | undefined) {
  const filter = {
    equals: c.list.equalsOf(c.query),
    createdFrom: c.query.created_from ? new Date(c.query.created_from) : undefined,
    createdTo: c.query.created_to ? new Date(c.query.created_to) : undefined,
  };
  const { statement, values } = keysetPageStatement('bench', c.list.table, c.list.idType, authenticatedPartnerId(partnerId), filter, {
    limit: LIMIT,
    after,
  });
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

/** SAMPLES sequential GETs of `path` after WARMUP unmeasured ones, each a 200 that `ok` accepts: p50, p99, max. */
async function timeGets(api: ApiClient, path: string, ok: (body: Record<string, unknown>) => boolean) {
  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const t0 = performance.now();
    const res = await api.get<Record<string, unknown>>(path);
    const took = performance.now() - t0;
    if (res.status !== 200 || !ok(res.body))
      throw new Error(`${path}: ${res.status}, an unexpected answer: ${JSON.stringify(res.body).slice(0, 300)}`);
    if (i >= WARMUP) latencies.push(took);
  }
  const d = h.distribution(latencies) as h.Distribution;
  return { p50Ms: d.p50, p99Ms: d.p99, maxMs: d.max };
}

bench.run(async () => {
  console.log(
    `lists bench: ${ROWS} rows per list, ${SAMPLES} samples per case, page ${LIMIT}; ${h.machine().cpus} cpus; gateway ${AT.gatewayPort}, broker ${AT.kafkaPort}, ${new URL(AT.databaseUrl).pathname.slice(1)}`,
  );
  // The generated open withdrawals hold no nonce: the rounds would sign and pay them; the DICT waits an hour.
  const env = { PAYOUTS_ENABLED: 'false', PIX_DICT_DELAY_MS: String(3600 * 1000) };
  const chainTimings = DEV_CHAIN_TIMINGS;
  const { stack, admin: adminKey } = await bench.stack(AT, { build: !noBuild, blockTimeMs: DEV_BLOCK_TIME_MS, chainTimings, env });
  const partner = await h.sandboxPartner(stack.gatewayUrl, adminKey, 'lists bench');
  const partnerId = partner.id;
  const api = new ApiClient(stack.gatewayUrl, { 'x-api-key': partner.key });
  const db = new Client({ connectionString: AT.databaseUrl });
  await db.connect();
  bench.onStop('the database client', () => db.end());

  const known = { cpfs: Array.from({ length: GROUPS }, () => newCpf()), keyCpf: newCpf(), cnpj: generateCnpj({ version: 2 }) };
  const base = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  const fillMs = await fill(db, partnerId, known, base);
  console.log(`filled in ${JSON.stringify(fillMs)} ms`);

  const day = (n: number) => new Date(base.getTime() + n * 24 * 3600 * 1000).toISOString();
  const cases: Case[] = [
    { list: LISTS.withdrawals, label: 'no filter', query: {} },
    { list: LISTS.withdrawals, label: 'document (1,000 rows)', query: { document: known.cpfs[7] } },
    { list: LISTS.withdrawals, label: 'state=failed (1 %)', query: { state: 'failed' } },
    { list: LISTS.withdrawals, label: 'one day (created_from/to)', query: { created_from: day(5), created_to: day(6) } },
    { list: LISTS.withdrawals, label: 'document + state=settled', query: { document: known.cpfs[7], state: 'settled' } },
    { list: LISTS.pix_keys, label: 'no filter', query: {} },
    { list: LISTS.pix_keys, label: 'status=registered (20 %)', query: { status: 'registered' } },
    { list: LISTS.pix_keys, label: 'document (1 row)', query: { document: known.keyCpf } },
    { list: LISTS.business_customers, label: 'no filter', query: {} },
    { list: LISTS.business_customers, label: 'external_id (1,000 rows)', query: { external_id: 'ext-7' } },
    { list: LISTS.business_customers, label: 'cnpj (1 row)', query: { cnpj: known.cnpj } },
  ];
  // The floor, same run: one withdrawal by id takes the same path, so a page's own cost is its excess over it.
  const { rows: one } = await db.query<{ id: string }>('SELECT id::text FROM withdrawals.withdrawals WHERE partner_id = $1 LIMIT 1', [
    partnerId,
  ]);
  const floor = await timeGets(api, `/partner/v1/withdrawals/usdt/${one[0].id}`, (body) => String(body.id) === one[0].id);
  console.log(`floor: GET /partner/v1/withdrawals/usdt/{id} p50 ${floor.p50Ms.toFixed(2)} ms  p99 ${floor.p99Ms.toFixed(2)} ms`);
  const results = [];
  for (const c of cases) {
    const deep = await deepPosition(db, c, partnerId);
    const scope = listScope(c.list.name, partnerId, c.list.scopeOf(c.query));
    const pages: Array<['first' | 'deep', { atMs: number; id: string } | undefined]> = [['first', undefined]];
    if (deep.matching > LIMIT) pages.push(['deep', { atMs: deep.atMs, id: deep.id }]);
    for (const [depth, after] of pages) {
      const query = new URLSearchParams({ ...c.query, limit: String(LIMIT), ...(after ? { cursor: encodeListCursor(after, scope) } : {}) });
      const expected = Math.min(LIMIT, after ? deep.matching - Math.max(0, Math.floor(deep.matching * 0.9)) : deep.matching);
      const timing = await timeGets(
        api,
        `${c.list.path}?${query.toString()}`,
        (body) => (body[c.list.schema] as unknown[] | undefined)?.length === expected,
      );
      const { plan, sqlMs } = await explain(db, c, partnerId, after);
      const overFloorP50Ms = h.round(timing.p50Ms - floor.p50Ms);
      results.push({ list: c.list.path, label: c.label, depth, matching: deep.matching, ...timing, overFloorP50Ms, plan, sqlMs });
      console.log(
        `${c.list.path.padEnd(32)} ${c.label.padEnd(28)} ${depth.padEnd(5)} ${String(deep.matching).padStart(8)} rows  p50 ${timing.p50Ms.toFixed(2).padStart(6)} ms (floor +${overFloorP50Ms.toFixed(2)})  p99 ${timing.p99Ms.toFixed(2).padStart(6)} ms  SQL ${sqlMs.toFixed(3)} ms  ${plan.join(' / ')}`,
      );
    }
  }
  h.writeResults(
    'lists.json',
    { rows: ROWS, samples: SAMPLES, limit: LIMIT, cpus: h.machine().cpus, at: new Date().toISOString(), fillMs, floor, results },
    AT.logDir,
  );
});
