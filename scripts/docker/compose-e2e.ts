/**
 * `npm run compose:e2e`: the Compose path end to end on a real Docker engine, as .ci/run runs it after
 * `npm test` (which adds this step's counts to its own from the last line, `N passed, N failed`). On a project
 * and ports of its own (COMPOSE_E2E_PROJECT, COMPOSE_E2E_GATEWAY_PORT 18000 (HTTPS), COMPOSE_E2E_OPERATOR_PORT 18100,
 * COMPOSE_E2E_CHAIN_PORT_ETH 18555, COMPOSE_E2E_CHAIN_PORT_MATIC 18556), one check each:
 *   1. `compose:up -- --local-chains` in production mode, fresh secrets and hot wallet key, every service ready;
 *   then HTTPS only on the public port, with HSTS (plain HTTP redirected; a client without the certificate refuses it);
 *   2. the public port: the partner API, /docs and /healthz only (404 for the rest, even with the operator
 *      key), no version in `Server`, 413 over the body cap; the operator port on the loopback only;
 *   3. the apps as `node` on Node 24, each database role reaching its own schema only;
 *   then no container's environment holding a secret (docker inspect: each reads its files of /run/secrets),
 *   then the proxy reaching the gateway and neither the broker nor the database (the edge network), and
 *      every app read-only, without capabilities or new privileges, writing /tmp only;
 *   4-5. a partner onboarded through the operator URL, withdrawals through the public URL settled in its feed
 *      and, on ETH, on the chain (balanceOf and the Transfer log, read from the published node);
 *   6. the tools/e2e operator suite against the operator port (COMPOSE_E2E_JEST=false skips it);
 *   7. a crash of the withdrawals process and a `docker kill` of its container under load, then a crash of the
 *      payout worker (`payouts`) that the requests never notice: every accepted withdrawal settled exactly
 *      once (feed and balance), the kill's recovery within RECOVERY_RATIO of the crash's;
 *   then forged X-Forwarded-For headers, which do not spare unknown keys the throttle (the proxy overwrites them);
 *   8. `compose:down`: no container, network or volume of the project remains.
 */
import assert from 'node:assert';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { get as httpsGet } from 'node:https';
import * as tls from 'node:tls';
import { Agent, setGlobalDispatcher } from 'undici';
import { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { pgSchemaOf, SERVICE_NAMES, Topics } from '@partner/contracts';
import type { PartnerEvent } from '@partner/contracts';
import { ApiClient, newCpf, newUuid, pollUntil, tokenBalance, transferLogs, VALID_ADDRESS } from '@partner/testing';
import { FeedFollower } from '@partner/chaos';
import { repoRoot } from '../lib/services';
import { compose, composeDown, composeEnv, composeSettings, composeUp, containersOf, DOCKERD_LOG, readEnvFile } from './compose';
import { OPERATOR_SECRET_VARIABLES, SECRET_VARIABLES } from './compose-variables';
import { docker, ensureEngine, runVisible } from './docker';

const root = repoRoot();
const project = process.env.COMPOSE_E2E_PROJECT ?? 'partner-service-e2e';
const workDir = join(root, '.cache', 'compose-e2e');
const settings = composeSettings({
  COMPOSE_PROJECT_NAME: project,
  COMPOSE_ENV_FILE: join(workDir, '.env'),
  GATEWAY_PORT: process.env.COMPOSE_E2E_GATEWAY_PORT ?? '18000',
  OPERATOR_PORT: process.env.COMPOSE_E2E_OPERATOR_PORT ?? '18100',
  SANDBOX: 'false',
  // No real chain here: the local test chains, on ports beside npm start's and npm test's.
  COMPOSE_LOCAL_CHAINS: 'true',
  CHAIN_PORT_ETH: process.env.COMPOSE_E2E_CHAIN_PORT_ETH ?? '18555',
  CHAIN_PORT_MATIC: process.env.COMPOSE_E2E_CHAIN_PORT_MATIC ?? '18556',
});
const publicUrl = `https://127.0.0.1:${settings.gatewayPort}`;
/** The self-signed certificate compose:up gave the proxy: what this run's clients trust (none other). */
const proxyCertificate = () => join(workDir, '.env.tls.pem');

/** Node 24's runtime CA setters (tls.setDefaultCACertificates, v22.19/v24.5), not in @types/node 20 yet. */
type TlsCaStore = { getCACertificates?(kind: 'default'): string[]; setDefaultCACertificates?(certs: string[]): void };
/**
 * Every TLS client of this process (fetch, ApiClient's) trusts the proxy's self-signed certificate too: the
 * default CAs themselves on Node 24; on an older Node (run without the project's), fetch's global dispatcher.
 */
function trustProxyCertificate(): void {
  const certificate = readFileSync(proxyCertificate(), 'utf8');
  const store = tls as unknown as TlsCaStore;
  if (store.setDefaultCACertificates && store.getCACertificates)
    store.setDefaultCACertificates([...store.getCACertificates('default'), certificate]);
  else setGlobalDispatcher(new Agent({ connect: { ca: [...tls.rootCertificates, certificate] } }));
}
const operatorUrl = `http://127.0.0.1:${settings.operatorPort}`;
const ethChainUrl = `http://127.0.0.1:${settings.chainPorts.ETH}`;
// The recovery bound is a ratio to a floor of the same run (a machine's pace differs from day to day): the
// crash's outage (Docker's restart of the process: its start and the consumer's 6 s session timeout). After a
// `docker kill`, `compose up -d withdrawals` first runs the deploy steps again (migrate, then topics), timed
// apart; what follows them is the same start, within RECOVERY_RATIO times the floor.
const RECOVERY_RATIO = 1.5;
const USDT = 1_000_000;
const AMOUNT = 100_000;
const MATIC_LOW_FEE = 20_000;

const totals = { passed: 0, failed: 0 };

async function check(name: string, body: () => Promise<void> | void): Promise<boolean> {
  const started = Date.now();
  const took = () => `${Math.round((Date.now() - started) / 1000)} s`;
  try {
    await body();
    totals.passed++;
    console.log(`compose e2e: ${name}: passed (${took()})`);
    return true;
  } catch (error) {
    totals.failed++;
    console.log(`compose e2e: ${name}: FAILED (${took()})\n  ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const adminKey = (): string => readEnvFile(settings.envFile).ADMIN_API_KEY;
const operator = () => new ApiClient(operatorUrl, { 'x-admin-key': adminKey() });
/** The running container of a service. */
const running = (service: string): string | undefined => containersOf(project, false).find((c) => c.service === service)?.name;

/** A partner made the way production makes one: the operator API only. */
async function onboard(name: string, credit: number): Promise<{ id: string; apiKey: string; document: string; credited: number }> {
  const partner = await operator().post<{ id: string }>('/admin/v1/partners', { name });
  expectEqual('create partner', partner.status, 201);
  const path = `/admin/v1/partners/${partner.body.id}`;
  const key = await operator().post<{ api_key: string }>(`${path}/api-keys`, undefined);
  expectEqual('create API key', key.status, 201);
  assert(key.body.api_key.startsWith('pk_live_'), `a production key is pk_live_..., got ${key.body.api_key.slice(0, 12)}`);
  const document = newCpf();
  expectEqual('create user', (await operator().post(`${path}/users`, { document })).status, 201);
  if (credit > 0) {
    const body = { usdt_micros: credit, idempotency_key: `e2e-${newUuid()}`, reference: 'compose e2e' };
    const credited = await operator().post<{ available_usdt_micros: number }>(`${path}/users/${document}/credits`, body);
    expectEqual('credit', [credited.status, credited.body.available_usdt_micros], [201, credit]);
  }
  return { id: partner.body.id, apiKey: key.body.api_key, document, credited: credit };
}
type Onboarded = Awaited<ReturnType<typeof onboard>>;

const withdrawal = (document: string, key = newUuid()) => ({
  document,
  idempotency_key: key,
  address: VALID_ADDRESS,
  usdtmicros: AMOUNT,
  fee_choice: 'LOW',
  network: 'MATIC',
});

/** Every accepted withdrawal of the partner settled exactly once in its feed, and the balance adds up. */
async function auditSettled(partner: Onboarded, accepted: Set<string>, timeoutMs: number): Promise<void> {
  const feed = new FeedFollower(publicUrl, partner.apiKey);
  const finals = (): Map<string, PartnerEvent[]> => {
    const byId = new Map<string, PartnerEvent[]>();
    for (const e of feed.events)
      if (e.type === 'usdt_withdrawal' && (e.state === 'settled' || e.state === 'failed'))
        byId.set(e.resource_id, [...(byId.get(e.resource_id) ?? []), e]);
    return byId;
  };
  const open = async (): Promise<number> => {
    await feed.readNew();
    return [...accepted].filter((id) => !finals().has(id)).length;
  };
  await pollUntil(`${accepted.size} withdrawals settled in the feed`, open, (n) => n === 0, { timeoutMs, intervalMs: 500 });
  // A late duplicate would arrive after the first: read once more after a quiet moment.
  await sleep(3_000);
  await feed.readNew();
  const final = finals();
  const unknown = [...final.keys()].filter((id) => !accepted.has(id));
  const twice = [...final].filter(([, events]) => events.length !== 1).map(([id]) => id);
  const notSettled = [...final].filter(([, events]) => events.some((e) => e.state !== 'settled')).map(([id]) => id);
  assert(unknown.length === 0, `final events for withdrawals no client was told of: ${unknown.join(', ')}`);
  assert(twice.length === 0, `withdrawals with more than one final event: ${twice.join(', ')}`);
  assert(notSettled.length === 0, `withdrawals that did not settle: ${notSettled.join(', ')}`);
  const balance = await operator().get(`/admin/v1/partners/${partner.id}/users/${partner.document}/balance`);
  expectEqual('balance after every withdrawal settled', balance.body, {
    available_usdt_micros: partner.credited - accepted.size * (AMOUNT + MATIC_LOW_FEE),
    held_usdt_micros: 0,
    available_brl_cents: 0,
    blocked_brl_cents: 0,
  });
}

/**
 * The tools/e2e operator suite against the stack: its "two gateway instances" are the proxy's two ports twice
 * (the proxy spreads calls over the gateway replicas), the production operator key is the stack's. HTTP only:
 * no database and no broker, as unit specs get none (jest.setup.js).
 */
function operatorSuite(): void {
  // No sandbox gateway in a production stack: the suite's one check against it does not apply.
  const { GATEWAY_URL: _noSandboxGateway, ...env } = process.env;
  const spec = 'tools/e2e/src/operator-api.spec.ts';
  runVisible(spec, join(root, 'node_modules/.bin/jest'), ['-c', 'tools/e2e/jest.e2e.config.js', '--runInBand', spec], {
    cwd: root,
    env: {
      ...env,
      JEST_SUITE: 'all',
      // The public port is HTTPS with compose:up's self-signed certificate: the suite's process trusts it.
      NODE_EXTRA_CA_CERTS: proxyCertificate(),
      OPERATOR_GATEWAY_URLS: `${publicUrl},${publicUrl}`,
      OPERATOR_GATEWAY_ADMIN_URLS: `${operatorUrl},${operatorUrl}`,
      PRODUCTION_ADMIN_API_KEY: adminKey(),
      DATABASE_URL: 'postgresql://the-compose-e2e-suite-has-no-database@127.0.0.1:9/none',
      KAFKA_BROKERS: '127.0.0.1:9',
    },
  });
}

async function killDuringLoad(): Promise<void> {
  const partner = await onboard('compose e2e load', 1_000 * USDT);
  const api = new ApiClient(publicUrl, { 'x-api-key': partner.apiKey });
  const accepted = new Set<string>();
  /** Requests without a final answer yet (5xx or none), retried with their own key afterwards. */
  const pending = new Set<string>();
  let killedAt = 0;
  let recoveredAt = 0;
  let stop = false;

  const send = async (key: string): Promise<void> => {
    const sentAt = Date.now();
    const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawal(partner.document, key)).catch(() => undefined);
    if (res === undefined || res.status >= 500) pending.add(key);
    else if (res.status !== 201 && res.status !== 200) throw new Error(`withdrawal refused: ${res.status} ${JSON.stringify(res.body)}`);
    else {
      accepted.add(String(res.body.id));
      pending.delete(key);
      if (killedAt && !recoveredAt && sentAt > killedAt) recoveredAt = Date.now();
    }
  };
  const workers = Array.from({ length: 3 }, async () => {
    while (!stop) {
      await send(newUuid());
      await sleep(150);
    }
  });
  const acceptedCount = async () => accepted.size;
  const acceptedMore = (what: string, more: number, timeoutMs: number, before = accepted.size) =>
    pollUntil(what, acceptedCount, (n) => n >= before + more, { timeoutMs, intervalMs: 200 });

  /** Stops the withdrawals service one way, starts it again another (or lets Docker); answers the outage's ms, start command's apart. */
  const outage = async (what: string, stopIt: (container: string) => void, startIt: () => void) => {
    await acceptedMore(`withdrawals accepted before the ${what}`, 20, 60_000);
    const victim = running('withdrawals');
    assert(victim, 'no running withdrawals container');
    recoveredAt = 0;
    killedAt = Date.now();
    stopIt(victim);
    const startedAt = Date.now();
    startIt();
    const startMs = Date.now() - startedAt;
    const recovered = async () => recoveredAt;
    await pollUntil(`a withdrawal accepted again after the ${what}`, recovered, (t) => t > 0, { timeoutMs: 90_000, intervalMs: 200 });
    const ms = recoveredAt - killedAt;
    // Where the outage went: the start command (for `compose up -d`, the deploy steps it runs again first) and the rest.
    console.log(
      `compose e2e: ${what}: accepting again ${(ms / 1000).toFixed(1)} s after it (start command ${(startMs / 1000).toFixed(1)} s; ` +
        `${accepted.size} withdrawals accepted so far)`,
    );
    return { ms, startMs };
  };
  // A crash: the app's process dies (SIGKILL from inside); the restart policy brings the container back. The
  // exec session dies with the container: its exit status says nothing, the outage does. The command line may
  // carry node flags of its own before the script (docker-compose.yml).
  const killApp = `for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null | grep -q '^node .*dist/apps/' && kill -9 \${p#/proc/}; done; true`;
  const floor = await outage(
    'crash of the withdrawals process (restart: unless-stopped)',
    (container) => docker(['exec', container, 'sh', '-c', killApp]),
    () => undefined,
  );
  // `docker kill`: Docker counts it as a deliberate stop and does not restart the container; the operator's
  // `docker compose up -d` does, at once (with the stack's own environment: any other would recreate containers).
  const killed = await outage(
    'docker kill of the withdrawals container, then compose up -d',
    (container) => {
      const r = docker(['kill', container]);
      assert(r.status === 0, `docker kill: ${r.stderr}`);
    },
    () => {
      const r = compose(settings, ['up', '-d', '--no-build', 'withdrawals'], composeEnv(settings));
      assert(r.status === 0, `compose up -d withdrawals: ${r.stderr}`);
    },
  );
  const slow = killed.ms > killed.startMs + RECOVERY_RATIO * floor.ms;
  await acceptedMore('load after the recovery', 10, 30_000);
  // The payout worker's crash is not the request path's: withdrawals go on being accepted while Docker
  // restarts it, not one refused, and it pays them afterwards (the audit below).
  const worker = running('payouts');
  assert(worker, 'no running payouts container');
  const unansweredBefore = pending.size;
  docker(['exec', worker, 'sh', '-c', killApp]);
  await acceptedMore('withdrawals accepted while the payout worker restarts', 20, 60_000);
  const unanswered = pending.size - unansweredBefore;
  console.log(`compose e2e: crash of the payout worker: ${unanswered} requests without an answer meanwhile`);
  stop = true;
  await Promise.all(workers);
  // A careful partner retries every request without a final answer with the same key.
  const retried = async () => {
    for (const key of [...pending]) await send(key);
    return pending.size;
  };
  await pollUntil('every request answered for good', retried, (n) => n === 0, { timeoutMs: 60_000, intervalMs: 500 });
  console.log(`compose e2e: ${accepted.size} withdrawals accepted in all`);
  await auditSettled(partner, accepted, 120_000);
  assert(!slow, `docker kill: ${killed.ms} ms, over its start command plus ${RECOVERY_RATIO} × the crash's ${floor.ms} ms`);
  assert(unanswered === 0, `${unanswered} requests went unanswered while the payout worker restarted: it is on the request path`);
}

/** The project's containers, networks and volumes the engine still has. */
const leftovers = (): string[] =>
  [
    ['container', 'ps', '-a', '{{.Names}}'],
    ['network', 'network', 'ls', '{{.Name}}'],
    ['volume', 'volume', 'ls', '{{.Name}}'],
  ]
    .flatMap(([kind, command, option, name]) => {
      const filter = `label=com.docker.compose.project=${project}`;
      return docker([command, option, '--filter', filter, '--format', `${kind} ${name}`]).stdout.split('\n');
    })
    .filter(Boolean);

const PROVIDER_SECRET = randomBytes(24).toString('hex');

/**
 * A user's Pix, notified as the provider does (signed, through the proxy) up to `credited`, then refunded in
 * part by the partner: the refund reaches `success` only if inflows got a token from the pix-api-test container
 * and its devolução was accepted there.
 */
async function refundThroughPixApi(): Promise<void> {
  const partner = await operator().post<{ id: string }>('/admin/v1/partners', { name: 'compose e2e refund' });
  const key = await operator().post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`, undefined);
  const document = newCpf();
  const user = await operator().post<{ account: Record<string, string> }>(`/admin/v1/partners/${partner.body.id}/users`, {
    document,
    name: 'Joana Prado',
  });
  expectEqual('create user', user.status, 201);
  const { opened_at: _openedAt, ...account } = user.body.account;
  const minute = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  const endToEndId = `E60701190${minute}${randomBytes(8).toString('hex').slice(0, 11)}`;
  const provider = new ApiClient(publicUrl);
  const senderTaxId = newCpf();
  for (const status of ['processing', 'approved', 'success', 'credited']) {
    const body = JSON.stringify({
      end_to_end_id: endToEndId,
      amount_cents: 5_000,
      method: 'manual',
      receiver_account: account,
      sender_name: 'Maria Souza',
      sender_tax_id: senderTaxId,
      sender_account_number: '12345678',
      sender_account_type: 'checking',
      sender_bank_code: '60701190',
      sender_branch_code: '0001',
      status,
    });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', PROVIDER_SECRET).update(`${t}.${body}`).digest('hex')}`;
    const answer = await provider.request('POST', '/provider/v2/pix/inflows', body, { 'x-pix-signature': signature });
    assert(answer.status === 200 || answer.status === 201, `notify ${status}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  const api = new ApiClient(publicUrl, { 'x-api-key': key.body.api_key });
  const refund = await api.post('/partner/v1/pix-in/' + endToEndId + '/refunds', {
    idempotency_key: newUuid(),
    amount_cents: 2_000,
    reason: 'order cancelled',
  });
  expectEqual('refund', refund.status, 201);
  const inflow = await pollUntil(
    'the refund in a final state',
    async () =>
      (await api.get<{ status: string; refunds: { status: string; failure_reason: string | null }[] }>(`/partner/v1/pix-in/${endToEndId}`))
        .body,
    (i) => ['success', 'failed'].includes(i.refunds?.[0]?.status),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  expectEqual(
    'the refund',
    [inflow.refunds[0].status, inflow.refunds[0].failure_reason, inflow.status],
    ['success', null, 'partially_returned'],
  );
}

async function main(): Promise<void> {
  const problem = await ensureEngine(DOCKERD_LOG);
  if (problem) {
    console.log(`compose e2e: no Docker engine: ${problem}\n0 passed, 1 failed`);
    process.exitCode = 1;
    return;
  }
  // A run of its own: fresh secrets, nothing left from an earlier run.
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  // The Pix provider's webhook secret, so this run can notify an inflow as the provider does (compose:up writes its secret file).
  writeFileSync(settings.envFile, `PIX_PROVIDER_WEBHOOK_SECRET=${PROVIDER_SECRET}\n`, { mode: 0o600 });
  if (leftovers().length > 0) composeDown(settings);

  if (await check('compose:up brings the stack up in production mode on local chains, every service ready', () => composeUp(settings))) {
    trustProxyCertificate();
    await check('the public port answers HTTPS only, with HSTS; plain HTTP is redirected to HTTPS, untrusted TLS refused', async () => {
      const res = await fetch(`${publicUrl}/healthz`);
      expectEqual('GET /healthz over HTTPS', res.status, 200);
      expectEqual('HSTS', res.headers.get('strict-transport-security'), 'max-age=31536000; includeSubDomains');
      const missing = await fetch(`${publicUrl}/admin/v1/partners`);
      expectEqual(
        'HSTS on a 404 of the proxy',
        [missing.status, missing.headers.get('strict-transport-security')],
        [404, 'max-age=31536000; includeSubDomains'],
      );
      const plain = await fetch(`http://127.0.0.1:${settings.gatewayPort}/healthz`, { redirect: 'manual' });
      expectEqual('plain HTTP', [plain.status, plain.headers.get('location')], [308, `${publicUrl}/healthz`]);
      // A client that trusts the public CAs only (Mozilla's, as a partner's would) refuses the self-signed one.
      const untrusted = await new Promise<string>((done) =>
        httpsGet(`${publicUrl}/healthz`, { ca: [...tls.rootCertificates] }, () => done('trusted')).on('error', (error) =>
          done(error.message),
        ),
      );
      assert(/self[- ]signed|certificate/i.test(untrusted), `a client without the certificate was not refused: ${untrusted}`);
    });
    await check('the public port serves the partner API, /docs and /healthz, and nothing else, even with the operator key', async () => {
      expectEqual('GET /healthz', (await fetch(`${publicUrl}/healthz`)).status, 200);
      expectEqual('GET /docs', (await fetch(`${publicUrl}/docs`)).status, 200);
      expectEqual('GET /partner/v1/events without a key', (await fetch(`${publicUrl}/partner/v1/events`)).status, 401);
      const headers = { 'x-admin-key': adminKey(), 'content-type': 'application/json' };
      const refused =
        'GET /readyz,GET /metrics,GET /admin/v1/audit-log,POST /admin/v1/partners,GET /internal/queries,POST /sandbox/v1/partners,GET /';
      for (const [method, path] of refused.split(',').map((call) => call.split(' '))) {
        const res = await fetch(`${publicUrl}${path}`, { method, headers, body: method === 'POST' ? '{"name":"intruder"}' : undefined });
        expectEqual(`${method} ${path} on the public port`, res.status, 404);
      }
      const server = (await fetch(`${publicUrl}/healthz`)).headers.get('server') ?? '';
      assert(!/\d/.test(server), `the Server header shows a version: ${server}`);
      const big = await fetch(`${publicUrl}/partner/v1/withdrawals/usdt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`,
      });
      expectEqual('a 2 MiB body', big.status, 413);
      const published = docker(['port', running('proxy') ?? 'proxy', '8081']).stdout.trim();
      assert(/^127\.0\.0\.1:/.test(published), `the operator port is published on ${published}, not on the loopback only`);
    });

    await check('the apps run as node on Node 24; each database role reaches its own schema only', () => {
      const apps = ['gateway', ...SERVICE_NAMES];
      for (const c of containersOf(project, false).filter((c) => apps.includes(c.service))) {
        expectEqual(`${c.service}: user`, docker(['exec', c.name, 'id', '-un']).stdout.trim(), 'node');
        assert(docker(['exec', c.name, 'node', '--version']).stdout.startsWith('v24.'), `${c.service}: not on Node 24`);
      }
      const postgres = running('postgres');
      assert(postgres, 'no running postgres container');
      const schemas = apps.map(pgSchemaOf);
      const sql = schemas
        .flatMap((role) =>
          schemas.map((schema) => `SELECT 'svc_${role}', '${schema}', has_schema_privilege('svc_${role}', '${schema}', 'USAGE');`),
        )
        .join('\n');
      const out = docker(['exec', postgres, 'psql', '-U', 'postgres', '-d', 'partner', '-At', '-F', ' ', '-c', sql]);
      assert(out.status === 0, `psql: ${out.stderr}`);
      const wrong = out.stdout
        .split('\n')
        .filter(Boolean)
        .filter((line) => {
          const [role, schema, usage] = line.split(' ');
          return (role === `svc_${schema}`) !== (usage === 't');
        });
      assert(wrong.length === 0, `roles with the wrong reach: ${wrong.join('; ')}`);
    });

    await check("no container's environment holds a secret (docker inspect): each reads its own from /run/secrets", () => {
      const stored = readEnvFile(settings.envFile);
      const secrets = SECRET_VARIABLES.map((variable) => stored[variable]).filter((value): value is string => Boolean(value));
      expectEqual('secrets generated', secrets.length, SECRET_VARIABLES.length);
      // Every container of the project, the deploy steps that ran and exited included.
      const containers = containersOf(project);
      assert(containers.length > 10, `only ${containers.length} containers found`);
      // The operator's own (node URLs, SMTP, Twilio, the Pix provider's): files too, in the apps; test values here.
      const operatorSecrets = [...OPERATOR_SECRET_VARIABLES.required, ...OPERATOR_SECRET_VARIABLES.optional];
      const apps = ['gateway', 'payouts', ...SERVICE_NAMES];
      for (const c of containers) {
        const env = JSON.parse(docker(['inspect', '-f', '{{json .Config.Env}}', c.name]).stdout) as string[];
        const holding = env.filter((entry) => secrets.some((secret) => entry.includes(secret))).map((entry) => entry.split('=')[0]);
        expectEqual(`${c.service}: variables holding a secret`, holding, []);
        if (!apps.includes(c.service)) continue;
        const named = env.map((entry) => entry.split('=')[0]).filter((name) => (operatorSecrets as readonly string[]).includes(name));
        expectEqual(`${c.service}: the operator's secrets as variables`, named, []);
      }
    });

    await check("the CLI's container (tools, run by hand) reads the operator key and the owner's password from their files", () => {
      const cli = (...args: string[]) =>
        compose(
          settings,
          ['run', '--rm', '--no-deps', '-T', 'tools', 'npm', 'run', '--silent', 'cli', '--', ...args],
          composeEnv(settings),
        );
      // Straight in the database, as the owner (DATABASE_PASSWORD_FILE).
      const keys = cli('operator-key', 'list');
      assert(keys.status === 0 && keys.stdout.includes('environment'), `tools: operator-key list: ${keys.stdout}${keys.stderr}`);
      // Through the operator API, with the operator key (ADMIN_API_KEY_FILE).
      const audit = cli('admin', 'audit', '--limit', '1');
      assert(audit.status === 0 && audit.stdout.startsWith('200 '), `tools: admin audit: ${audit.stdout}${audit.stderr}`);
    });

    await check('the proxy reaches the gateway, never the broker or the database; the apps run read-only, without capabilities', () => {
      const proxy = running('proxy');
      assert(proxy, 'no running proxy container');
      /** Whether a TCP connection from the proxy's container opens (bash's /dev/tcp: the images have no nc). */
      const reach = (host: string, port: number) =>
        docker([
          'exec',
          proxy,
          'bash',
          '-c',
          `timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port}' 2>/dev/null && echo open || echo closed`,
        ]).stdout.trim();
      expectEqual('proxy to gateway:3000', reach('gateway', 3000), 'open');
      for (const [service, port] of [
        ['kafka', 9092],
        ['postgres', 5432],
      ] as const) {
        const container = running(service);
        assert(container, `no running ${service} container`);
        // By name (Docker's DNS on the proxy's network does not know it) and by address (no route to its network).
        const address = docker(['inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}', container])
          .stdout.trim()
          .split(' ')[0];
        expectEqual(`proxy to ${service}:${port}`, [reach(service, port), reach(address, port)], ['closed', 'closed']);
      }
      const apps = ['gateway', ...SERVICE_NAMES];
      for (const c of containersOf(project, false).filter((c) => apps.includes(c.service))) {
        const hardening = docker([
          'inspect',
          '-f',
          '{{.HostConfig.ReadonlyRootfs}} {{json .HostConfig.CapDrop}} {{json .HostConfig.SecurityOpt}}',
          c.name,
        ]);
        expectEqual(`${c.service}: hardening`, hardening.stdout.trim(), 'true ["ALL"] ["no-new-privileges:true"]');
        const writes = (path: string) =>
          docker(['exec', c.name, 'sh', '-c', `touch ${path} 2>/dev/null && echo written || echo refused`]).stdout.trim();
        expectEqual(`${c.service}: writes`, [writes('/app/intruder'), writes('/tmp/scratch')], ['refused', 'written']);
      }
    });

    await check("from inside an app's container the broker refuses another service's topic, and a client without its password", () => {
      // What a foothold in the events service can try: its own credentials, the withdrawals service's name
      // with a guessed password, and no authentication at all. Each send is a credit command (1e9 USDT).
      const events = running('events');
      assert(events, 'no running events container');
      const attempt = (sasl: string) =>
        docker([
          'exec',
          events,
          'node',
          '-e',
          `const { Kafka, logLevel } = require('kafkajs');
           const password = require('fs').readFileSync('/run/secrets/kafka_password_events', 'utf8').trim();
           const sasl = ${sasl};
           const ssl = { ca: [require('fs').readFileSync('/run/secrets/kafka_tls_cert', 'utf8')] };
           const producer = new Kafka({ clientId: 'intruder', brokers: ['kafka:9092'], ssl, sasl, logLevel: logLevel.NOTHING,
             connectionTimeout: 3000, retry: { retries: 1 } }).producer();
           producer.connect()
             .then(() => producer.send({ topic: '${Topics.WithdrawalsCreditAccount}', messages: [{ value: '{"usdt_micros":"1000000000000000"}' }] }))
             .then(() => console.log('went through'), (e) => { while (e.cause) e = e.cause; console.log(e.type || e.name); })
             .finally(() => producer.disconnect().catch(() => {}));`,
        ]).stdout.trim();
      expectEqual(
        "events' own principal",
        attempt("{ mechanism: 'scram-sha-512', username: 'events', password }"),
        'TOPIC_AUTHORIZATION_FAILED',
      );
      expectEqual(
        "withdrawals' name, events' password",
        attempt("{ mechanism: 'scram-sha-512', username: 'withdrawals', password }"),
        'KafkaJSSASLAuthenticationError',
      );
      assert(attempt('undefined') !== 'went through', 'a client without credentials published a credit command');
    });

    await check(
      'a partner onboarded through the operator URL withdraws through the public URL; the withdrawal settles in its feed',
      async () => {
        const partner = await onboard('compose e2e acme', 10 * USDT);
        const api = new ApiClient(publicUrl, { 'x-api-key': partner.apiKey });
        const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawal(partner.document));
        expectEqual('withdrawal', res.status, 201);
        await auditSettled(partner, new Set([String(res.body.id)]), 60_000);
        // The operator key opens nothing on the public port: the same call that worked on the operator URL.
        const intruder = await fetch(`${publicUrl}/admin/v1/partners/${partner.id}/users/${partner.document}/balance`, {
          headers: { 'x-admin-key': adminKey() },
        });
        expectEqual('operator balance read on the public port', intruder.status, 404);
      },
    );

    await check(
      'a withdrawal on ETH through the public URL settles on the chain: balanceOf its destination, read from the published node, is the amount',
      async () => {
        const partner = await onboard('compose e2e chain', 10 * USDT);
        const api = new ApiClient(publicUrl, { 'x-api-key': partner.apiKey });
        // A new address: nothing but this withdrawal ever paid it.
        const destination = privateKeyToAccount(generatePrivateKey()).address;
        const request = { ...withdrawal(partner.document), address: destination, network: 'ETH' };
        const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', request);
        expectEqual('withdrawal', res.status, 201);
        const final = await pollUntil(
          'the withdrawal in a final state',
          async () => (await api.get<{ state: string; tx_hash: string | null }>(`/partner/v1/withdrawals/usdt/${res.body.id}`)).body,
          (w) => w.state === 'settled' || w.state === 'failed',
          { timeoutMs: 90_000, intervalMs: 500 },
        );
        expectEqual('final state', final.state, 'settled');
        const token = readEnvFile(settings.envFile).USDT_CONTRACT_ETH as Address;
        expectEqual('balanceOf the destination', String(await tokenBalance(ethChainUrl, token, destination)), String(AMOUNT));
        // One transfer to it, the one whose hash the API reports.
        const logs = await transferLogs(ethChainUrl, token, { to: destination });
        expectEqual(
          'Transfer logs to the destination',
          logs.map((log) => [log.txHash, String(log.value)]),
          [[final.tx_hash, String(AMOUNT)]],
        );
      },
    );

    await check(
      "a Pix key registers in the test DICT (its container signs and checks with the Central Bank's XMLSigner, in Java)",
      async () => {
        const partner = await onboard('compose e2e pix', 0);
        const api = new ApiClient(publicUrl, { 'x-api-key': partner.apiKey });
        const request = { document: partner.document, idempotency_key: newUuid(), name: 'Maria Souza' };
        expectEqual('create Pix key', (await api.post('/partner/v1/pix-key', request)).status, 202);
        const key = await pollUntil(
          'the key in a final state',
          async () => (await api.get<{ status: string }>(`/partner/v1/pix-key/${partner.document}`)).body,
          (k) => k.status === 'registered' || k.status === 'failed',
          { timeoutMs: 60_000, intervalMs: 500 },
        );
        expectEqual('the key', key.status, 'registered');
      },
    );

    await check(
      'a credited Pix is refunded through the Pix API test server (its container checks each request against the Central Bank document)',
      refundThroughPixApi,
    );

    if (process.env.COMPOSE_E2E_JEST !== 'false') await check('tools/e2e operator suite against the operator port', operatorSuite);

    await check(
      `docker kill of the withdrawals container under load: every accepted withdrawal settled once, accepting again within its start command plus ${RECOVERY_RATIO} × a crash's outage; the payout worker's crash unseen by requests`,
      killDuringLoad,
    );

    // Last: it throttles this host's address for a few seconds.
    await check('a forged X-Forwarded-For does not change the address the unknown-key throttle sees', async () => {
      // Each call with an unknown key and an address of its own in the header: had the gateway believed it, no
      // address would pass the burst (AUTH_FAILURE_BURST, 20); the proxy overwrote it with this host's.
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${publicUrl}/partner/v1/events`, {
          headers: { 'x-api-key': `pk_live_unknown${i}`, 'x-forwarded-for': `198.51.100.${i}` },
        });
        statuses.push(res.status);
      }
      assert(
        statuses.slice(0, 5).every((s) => s === 401),
        `the first unknown keys were not 401: ${statuses.join(' ')}`,
      );
      assert(statuses.includes(429), `40 unknown keys under forged addresses were never throttled: ${statuses.join(' ')}`);
    });
  }

  await check('compose:down leaves no container, network or volume of the project', () => {
    composeDown(settings);
    const left = leftovers();
    assert(left.length === 0, `left behind: ${left.join(', ')}`);
  });
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
  process.exitCode = totals.failed === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  console.log(`\n${totals.passed} passed, ${totals.failed + 1} failed`);
  process.exit(1);
});
