/**
 * `npm run chaos [-- --no-build]`: fault injection against a real stack of its own (Kafka 57092,
 * database partner_chaos, gateway 19500, health ports 19601..; override with CHAOS_* variables).
 *
 * A steady load of USDT withdrawals runs while faults are injected one after another: kill -9 of each
 * app and a restart, a graceful Kafka restart, a kill -9 of the broker, and a database outage. The
 * PostgreSQL server is shared with other work on this machine, so it is not restarted: every connection
 * of the stack to its own database is terminated repeatedly for a few seconds instead, which is what the
 * services see of a PostgreSQL restart (every connection dropped, new ones refused or dropped until it is
 * back).
 *
 * Afterwards every answer that was not final (503, connection refused, timeout) is retried with the SAME
 * idempotency key, every accepted withdrawal must reach settled or failed, and the feed must hold exactly
 * one created, one sent and one final event per withdrawal: nothing lost, nothing duplicated. Prints the
 * counts; exits 1 when an invariant fails.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { APPS, repoRoot } from '../lib/services';
import { kafka, killApp, killKafka, migrate, recreateDatabase, restartApp, RunningStack, StackOptions, startApps, waitUntilReady } from '../stack/stack';

const root = repoRoot();
const kafkaPort = Number(process.env.CHAOS_KAFKA_PORT ?? 57092);
const databaseUrl = process.env.CHAOS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_chaos';
const gatewayPort = Number(process.env.CHAOS_GATEWAY_PORT ?? 19500);
const healthPortBase = Number(process.env.CHAOS_HEALTH_PORT_BASE ?? 19600);
const adminKey = `adm_chaos_${randomBytes(18).toString('base64url')}`;
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const PARTNERS = 12; // the feed answers at most 1000 events a page: keep each partner well below that
const WORKERS = 8;
const PACE_MS = 500; // each worker's pause: ~15 requests/s in all on this machine
const VALID_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const FINAL = new Set(['settled', 'failed']);

const options: StackOptions = {
  kafkaPort,
  databaseUrl,
  gatewayPort,
  healthPortBase,
  logDir: join(root, '.cache', 'chaos', 'logs'),
  env: {
    SANDBOX: 'true',
    ADMIN_API_KEY: adminKey,
    LOG_LEVEL: 'warn',
    CHAIN_SEND_DELAY_MS: '300',
    CHAIN_SETTLE_DELAY_MS: '600',
    CHAIN_TICK_MS: '100',
    REQUEST_TIMEOUT_MS: '8000',
    // Chaos measures recovery from faults, not the per-partner rate limit (retries come in bursts).
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
  },
};

interface Partner {
  id: string;
  apiKey: string;
  documents: string[];
}
interface Attempt {
  partner: Partner;
  body: Record<string, unknown>;
}
interface Answer {
  status: number; // 0: no HTTP answer (connection refused or reset, client timeout)
  body: Record<string, unknown> | undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  try {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: undefined };
  }
}

/** A CPF with valid check digits (random base, never all one digit). */
function cpf(): string {
  for (;;) {
    const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
    if (new Set(digits).size === 1) continue;
    for (const len of [9, 10]) {
      const sum = digits.slice(0, len).reduce((s, d, i) => s + d * (len + 1 - i), 0);
      const r = (sum * 10) % 11;
      digits.push(r === 10 ? 0 : r);
    }
    return digits.join('');
  }
}

async function setUp(): Promise<Partner[]> {
  const partners: Partner[] = [];
  for (let i = 0; i < PARTNERS; i++) {
    const created = await call('POST', '/sandbox/v1/partners', { 'x-admin-key': adminKey }, { name: `chaos ${i}` });
    if (created.status !== 201) throw new Error(`partner creation: ${created.status} ${JSON.stringify(created.body)}`);
    const partner: Partner = { id: String(created.body?.id), apiKey: String(created.body?.api_key), documents: [] };
    for (let u = 0; u < 2; u++) {
      const document = cpf();
      const user = await call('POST', '/sandbox/v1/users', { 'x-api-key': partner.apiKey }, { document, usdt_micros: 10_000_000_000 });
      if (user.status !== 201) throw new Error(`user creation: ${user.status} ${JSON.stringify(user.body)}`);
      partner.documents.push(document);
    }
    partners.push(partner);
  }
  return partners;
}

class Load {
  requests = 0;
  readonly accepted = new Map<string, { partner: Partner; id: number; status: number }>(); // by idempotency key
  readonly unanswered: Attempt[] = []; // 503, 5xx, no answer: retried later with the same key
  readonly statuses = new Map<number, number>();
  readonly unexpected: string[] = [];
  private stopped = false;
  private workers: Promise<void>[] = [];

  constructor(private readonly partners: Partner[]) {}

  start(): void {
    this.workers = Array.from({ length: WORKERS }, (_, w) => this.worker(w));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  private async worker(w: number): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const partner = this.partners[(w + n * WORKERS) % this.partners.length];
      const attempt: Attempt = {
        partner,
        body: {
          document: partner.documents[n % partner.documents.length],
          idempotency_key: randomUUID(),
          address: VALID_ADDRESS,
          usdtmicros: 1_000_000,
          fee_choice: 'MEDIUM',
          network: 'MATIC',
        },
      };
      this.requests++;
      const answer = await this.send(attempt);
      this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
      this.record(attempt, answer);
      await sleep(PACE_MS);
    }
  }

  send(attempt: Attempt): Promise<Answer> {
    return call('POST', '/partner/v1/withdrawals/usdt', { 'x-api-key': attempt.partner.apiKey }, attempt.body);
  }

  /** True when the answer is final (accepted or refused for good). */
  record(attempt: Attempt, answer: Answer): boolean {
    const key = String(attempt.body.idempotency_key);
    if (answer.status === 201 || answer.status === 200) {
      const id = Number(answer.body?.id);
      const earlier = this.accepted.get(key);
      if (earlier && earlier.id !== id) this.unexpected.push(`key ${key} answered ids ${earlier.id} and ${id}`);
      this.accepted.set(key, { partner: attempt.partner, id, status: answer.status });
      return true;
    }
    if (answer.status === 0 || answer.status >= 500) {
      this.unanswered.push(attempt);
      return false;
    }
    this.unexpected.push(`key ${key}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return true;
  }
}

/** Terminates every connection to the stack's database, again and again for `ms`: a PostgreSQL restart as the services see it. */
async function databaseOutage(ms: number): Promise<number> {
  const admin = new URL(databaseUrl);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  let terminated = 0;
  try {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const res = await client.query('SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      terminated += res.rowCount ?? 0;
      await sleep(100);
    }
  } finally {
    await client.end();
  }
  return terminated;
}

interface FeedEvent {
  id: string;
  type: string;
  resource_id: string;
  state: string;
}

async function feedOf(partner: Partner): Promise<FeedEvent[]> {
  const res = await call('GET', '/partner/v1/events?limit=1000', { 'x-api-key': partner.apiKey });
  if (res.status !== 200) throw new Error(`feed: ${res.status} ${JSON.stringify(res.body)}`);
  const events = (res.body?.events as FeedEvent[]).filter((e) => e.type === 'usdt_withdrawal');
  if ((res.body?.events as FeedEvent[]).length >= 1000) throw new Error('a partner has 1000 events: raise PARTNERS so that one page holds the whole feed');
  return events;
}

async function main(): Promise<number> {
  const noBuild = process.argv.includes('--no-build');
  try {
    kafka('stop', kafkaPort);
  } catch {
    /* not running */
  }
  rmSync(join(root, '.cache', 'kafka', `data-${kafkaPort}`), { recursive: true, force: true });
  rmSync(options.logDir as string, { recursive: true, force: true });
  kafka('start', kafkaPort);
  let stack: RunningStack | undefined;
  const failures: string[] = [];
  const faults: string[] = [];
  try {
    await recreateDatabase(databaseUrl);
    migrate(databaseUrl);
    if (!noBuild) execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/build.ts')], { stdio: 'inherit' });
    stack = await startApps(options);
    const running = stack;
    const partners = await setUp();
    log(`stack ready; ${partners.length} partners; load starts`);
    const load = new Load(partners);
    load.start();
    await sleep(5_000);

    const fault = async (label: string, inject: () => Promise<void>) => {
      const started = Date.now();
      log(`fault: ${label}`);
      await inject();
      faults.push(label);
      log(`  recovered in ${((Date.now() - started) / 1000).toFixed(1)} s; requests so far ${load.requests}, accepted ${load.accepted.size}, unanswered ${load.unanswered.length}`);
      await sleep(5_000);
    };
    for (const app of APPS) {
      await fault(`kill -9 ${app}, restart`, async () => {
        await killApp(running, app);
        await sleep(1_000);
        await restartApp(running, app, options);
      });
    }
    await fault('Kafka broker restart (stop, start)', async () => {
      kafka('stop', kafkaPort);
      await sleep(2_000);
      kafka('start', kafkaPort);
      await waitUntilReady(running, 120_000);
    });
    await fault('kill -9 of the Kafka broker, start', async () => {
      await killKafka(kafkaPort);
      await sleep(2_000);
      kafka('start', kafkaPort);
      await waitUntilReady(running, 120_000);
    });
    await fault('database outage (every connection terminated for 5 s)', async () => {
      const terminated = await databaseOutage(5_000);
      log(`  ${terminated} connections terminated`);
      await waitUntilReady(running, 60_000);
    });
    await load.stop();
    log(`load stopped: ${load.requests} requests`);

    // Every request without a final answer, retried with its own idempotency key until it has one.
    const toRetry = [...load.unanswered];
    load.unanswered.length = 0;
    let retries = 0;
    const retryAnswers = new Map<number, number>(); // final status of each retried request
    const retryDeadline = Date.now() + 120_000;
    for (const attempt of toRetry) {
      for (;;) {
        retries++;
        const answer = await load.send(attempt);
        if (load.record(attempt, answer)) {
          retryAnswers.set(answer.status, (retryAnswers.get(answer.status) ?? 0) + 1);
          break;
        }
        load.unanswered.pop();
        if (Date.now() > retryDeadline) {
          failures.push(`retry of key ${String(attempt.body.idempotency_key)} never got a final answer`);
          break;
        }
        await sleep(500);
      }
    }
    const retriedAccepted = toRetry.filter((a) => load.accepted.has(String(a.body.idempotency_key))).length;

    // Every accepted withdrawal reaches a final state in its partner's feed.
    const expected = new Map<string, Set<string>>(); // partner id -> withdrawal ids
    for (const { partner, id } of load.accepted.values()) {
      if (!expected.has(partner.id)) expected.set(partner.id, new Set());
      expected.get(partner.id)?.add(String(id));
    }
    const feeds = new Map<string, FeedEvent[]>();
    const settleDeadline = Date.now() + 180_000;
    for (const partner of partners) {
      const ids = expected.get(partner.id) ?? new Set<string>();
      for (;;) {
        const events = await feedOf(partner);
        const final = new Set(events.filter((e) => FINAL.has(e.state)).map((e) => e.resource_id));
        feeds.set(partner.id, events);
        if ([...ids].every((id) => final.has(id))) break;
        if (Date.now() > settleDeadline) break;
        await sleep(1_000);
      }
    }
    // A quiet moment for a late duplicate to show up if the relay or a consumer would produce one.
    await sleep(3_000);
    for (const partner of partners) feeds.set(partner.id, await feedOf(partner));

    const perState = new Map<string, number>();
    let duplicates = 0;
    let missing = 0;
    let unknown = 0;
    const seenEventIds = new Set<string>();
    let duplicateEventIds = 0;
    for (const partner of partners) {
      const ids = expected.get(partner.id) ?? new Set<string>();
      const events = feeds.get(partner.id) ?? [];
      const byResourceState = new Map<string, number>();
      for (const e of events) {
        if (seenEventIds.has(e.id)) duplicateEventIds++;
        seenEventIds.add(e.id);
        perState.set(e.state, (perState.get(e.state) ?? 0) + 1);
        byResourceState.set(`${e.resource_id} ${e.state}`, (byResourceState.get(`${e.resource_id} ${e.state}`) ?? 0) + 1);
        if (!ids.has(e.resource_id)) unknown++;
      }
      for (const [key, n] of byResourceState) {
        if (n > 1) {
          duplicates += n - 1;
          failures.push(`partner ${partner.id}: ${n} events for ${key}`);
        }
      }
      for (const id of ids) {
        const finals = (byResourceState.get(`${id} settled`) ?? 0) + (byResourceState.get(`${id} failed`) ?? 0);
        for (const [state, n] of [['created', byResourceState.get(`${id} created`) ?? 0], ['sent', byResourceState.get(`${id} sent`) ?? 0], ['final', finals]] as const) {
          if (n === 0) {
            missing++;
            if (failures.length < 50) failures.push(`partner ${partner.id}: withdrawal ${id} has no ${state} event`);
          }
        }
      }
    }
    if (unknown > 0) failures.push(`${unknown} feed events of withdrawals that no client was ever answered for`);
    if (duplicateEventIds > 0) failures.push(`${duplicateEventIds} event ids appear twice`);

    // The database agrees: no withdrawal the clients were not told about, none left open.
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const rows = await db.query<{ id: number; state: string }>('SELECT id, state FROM withdrawals.withdrawals WHERE partner_id = ANY($1::uuid[])', [partners.map((p) => p.id)]);
    await db.end();
    const acceptedIds = new Set([...load.accepted.values()].map((a) => a.id));
    const phantom = rows.rows.filter((r) => !acceptedIds.has(r.id)).length;
    const open = rows.rows.filter((r) => !FINAL.has(r.state)).length;
    if (phantom > 0) failures.push(`${phantom} withdrawals in the database that no client was answered for`);
    if (open > 0) failures.push(`${open} withdrawals not final after the deadline`);
    if (rows.rows.length !== acceptedIds.size) failures.push(`${rows.rows.length} withdrawals in the database, ${acceptedIds.size} accepted`);
    failures.push(...load.unexpected);

    const statuses = [...load.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s === 0 ? 'no answer' : s}: ${n}`).join(', ');
    console.log('');
    console.log('chaos counts');
    console.log(`  faults injected:        ${faults.length} (${faults.join('; ')})`);
    console.log(`  requests:               ${load.requests} (${statuses})`);
    console.log(`  without a final answer: ${toRetry.length} (5xx or none); retried with the same key: ${retries} calls, answered ${[...retryAnswers].map(([s, n]) => `${s}: ${n}`).join(', ')}; ${retriedAccepted} resolved to a withdrawal`);
    console.log(`  accepted withdrawals:   ${acceptedIds.size} (database: ${rows.rows.length}, open: ${open}, unknown to clients: ${phantom})`);
    console.log(`  feed events per state:  ${[...perState].map(([s, n]) => `${s} ${n}`).join(', ')}`);
    console.log(`  duplicates:             ${duplicates + duplicateEventIds}`);
    console.log(`  missing:                ${missing}`);
    console.log(`  invariants:             ${failures.length === 0 ? 'all hold' : `${failures.length} FAILED`}`);
    for (const f of failures.slice(0, 50)) console.log(`    - ${f}`);
  } catch (error) {
    failures.push(`chaos run aborted: ${(error as Error).stack ?? error}`);
    console.error(failures[failures.length - 1]);
  } finally {
    await stack?.stop();
    kafka('stop', kafkaPort);
  }
  console.log(`(app logs: ${options.logDir})`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
