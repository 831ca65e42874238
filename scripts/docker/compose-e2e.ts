/**
 * `npm run compose:e2e`: the platform team's path proven end to end on a real Docker engine, as .ci/run
 * runs it after `npm test` (its counts are added to npm test's in the last line).
 *
 *   1. `npm run compose:up -- --local-chains` in production mode (SANDBOX=false), with fresh secrets and a
 *      fresh hot wallet key, on a project and ports of its own (partner-service-e2e; COMPOSE_E2E_GATEWAY_PORT
 *      18000, COMPOSE_E2E_OPERATOR_PORT 18100, the chains' JSON-RPC on COMPOSE_E2E_CHAIN_PORT_ETH 18555 and
 *      COMPOSE_E2E_CHAIN_PORT_MATIC 18556, all on 127.0.0.1 but the public port);
 *   2. the public port serves the partner API, /docs and /healthz only: the operator API (with the
 *      operator key), /readyz, /metrics, /internal and the sandbox routes are 404 there; no version in
 *      `Server`; a body over the cap is 413; the operator port is bound to the host's loopback only;
 *   3. the containers: the apps as `node` on Node 24, each database role limited to its own schema;
 *   4. a partner onboarded through the operator URL (partner, API key, user, credit), a withdrawal
 *      through the public URL settled in the partner's feed; a withdrawal on ETH to a new address settled,
 *      and that address's USDT balance on the chain (balanceOf, read from the node's published port) the
 *      amount; the operator suite of apps/e2e against the operator port (COMPOSE_E2E_JEST=false skips it);
 *   5. `docker kill` of the withdrawals container during a steady withdrawal load: a withdrawal is accepted
 *      again within RECOVERY_LIMIT_MS of the kill, and every accepted withdrawal settles exactly once (feed and balance);
 *   6. `npm run compose:down`: no container, network or volume of the project remains.
 * Each step is one check; the last line is `N passed, N failed`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { pgSchemaOf, SERVICE_NAMES } from '@partner/contracts';
import type { PartnerEvent } from '@partner/contracts';
import { ApiClient, FeedFollower, newCpf, newUuid, pollUntil, tokenBalance, transferLogs, VALID_ADDRESS } from '@partner/testing';
import { repoRoot } from '../lib/services';
import { compose, composeDown, composeEnv, composeSettings, composeUp, containersOf, DOCKERD_LOG, readEnvFile } from './compose';
import { docker, ensureEngine } from './docker';

const root = repoRoot();
const project = process.env.COMPOSE_E2E_PROJECT ?? 'partner-service-e2e';
const workDir = join(root, '.cache', 'compose-e2e');
const settings = composeSettings({
  COMPOSE_PROJECT_NAME: project,
  COMPOSE_ENV_FILE: join(workDir, '.env'),
  GATEWAY_PORT: process.env.COMPOSE_E2E_GATEWAY_PORT ?? '18000',
  OPERATOR_PORT: process.env.COMPOSE_E2E_OPERATOR_PORT ?? '18100',
  SANDBOX: 'false',
  // No real chain here: the local test chains (docker-compose.local-chains.yml), beside npm start's and npm test's.
  COMPOSE_LOCAL_CHAINS: 'true',
  CHAIN_PORT_ETH: process.env.COMPOSE_E2E_CHAIN_PORT_ETH ?? '18555',
  CHAIN_PORT_MATIC: process.env.COMPOSE_E2E_CHAIN_PORT_MATIC ?? '18556',
});
const publicUrl = `http://127.0.0.1:${settings.gatewayPort}`;
const operatorUrl = `http://127.0.0.1:${settings.operatorPort}`;
/** The ETH chain node's JSON-RPC, as the stack publishes it on the host's loopback. */
const ethChainUrl = `http://127.0.0.1:${settings.chainPorts.ETH}`;
// After a `docker kill`, `compose up -d withdrawals` first runs the deploy steps again (migrate, then
// topics: the app depends on both having completed), so their start-up is part of the outage; bundled, they
// start in node alone (Dockerfile, tools stage). The consumer's re-join itself is the session timeout (6 s).
const RECOVERY_LIMIT_MS = 15_000;
const USDT = 1_000_000;
const AMOUNT = 100_000;
const MATIC_LOW_FEE = 20_000;

const totals = { passed: 0, failed: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function check(name: string, body: () => Promise<void> | void): Promise<boolean> {
  const started = Date.now();
  try {
    await body();
    totals.passed++;
    console.log(`compose e2e: ${name}: passed (${Math.round((Date.now() - started) / 1000)} s)`);
    return true;
  } catch (error) {
    totals.failed++;
    console.log(
      `compose e2e: ${name}: FAILED (${Math.round((Date.now() - started) / 1000)} s)\n  ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const adminKey = (): string => readEnvFile(settings.envFile).ADMIN_API_KEY;
const operator = () => new ApiClient(operatorUrl, { 'x-admin-key': adminKey() });

/** A partner made the way production makes one: the operator API only. */
interface Onboarded {
  id: string;
  apiKey: string;
  document: string;
  credited: number;
}

async function onboard(name: string, credit: number): Promise<Onboarded> {
  const partner = await operator().post<{ id: string }>('/admin/v1/partners', { name });
  expectEqual('create partner', partner.status, 201);
  const key = await operator().post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`, undefined);
  expectEqual('create API key', key.status, 201);
  assert(key.body.api_key.startsWith('pk_live_'), `a production key is pk_live_..., got ${key.body.api_key.slice(0, 12)}`);
  const document = newCpf();
  const user = await operator().post(`/admin/v1/partners/${partner.body.id}/users`, { document });
  expectEqual('create user', user.status, 201);
  const credited = await operator().post<{ available_usdt_micros: number }>(
    `/admin/v1/partners/${partner.body.id}/users/${document}/credits`,
    {
      usdt_micros: credit,
      idempotency_key: `e2e-${newUuid()}`,
      reference: 'compose e2e',
    },
  );
  expectEqual('credit', [credited.status, credited.body.available_usdt_micros], [201, credit]);
  return { id: partner.body.id, apiKey: key.body.api_key, document, credited: credit };
}

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
  const finals = new Map<string, PartnerEvent[]>();
  await pollUntil(
    `${accepted.size} withdrawals settled in the feed`,
    async () => {
      for (const e of await feed.readNew()) {
        if (e.type === 'usdt_withdrawal' && (e.state === 'settled' || e.state === 'failed'))
          finals.set(e.resource_id, [...(finals.get(e.resource_id) ?? []), e]);
      }
      return [...accepted].filter((id) => !finals.has(id)).length;
    },
    (open) => open === 0,
    { timeoutMs, intervalMs: 500 },
  );
  // A late duplicate would arrive after the first: read once more after a quiet moment.
  await sleep(3_000);
  for (const e of await feed.readNew()) {
    if (e.type === 'usdt_withdrawal' && (e.state === 'settled' || e.state === 'failed'))
      finals.set(e.resource_id, [...(finals.get(e.resource_id) ?? []), e]);
  }
  const unknown = [...finals.keys()].filter((id) => !accepted.has(id));
  const twice = [...finals].filter(([, events]) => events.length !== 1).map(([id]) => id);
  const notSettled = [...finals].filter(([, events]) => events.some((e) => e.state !== 'settled')).map(([id]) => id);
  assert(unknown.length === 0, `final events for withdrawals no client was told of: ${unknown.join(', ')}`);
  assert(twice.length === 0, `withdrawals with more than one final event: ${twice.join(', ')}`);
  assert(notSettled.length === 0, `withdrawals that did not settle: ${notSettled.join(', ')}`);
  const balance = await operator().get<{ available_usdt_micros: number; held_usdt_micros: number }>(
    `/admin/v1/partners/${partner.id}/users/${partner.document}/balance`,
  );
  expectEqual('balance after every withdrawal settled', balance.body, {
    available_usdt_micros: partner.credited - accepted.size * (AMOUNT + MATIC_LOW_FEE),
    held_usdt_micros: 0,
    available_brl_cents: 0,
  });
}

/**
 * Runs the apps/e2e operator suite against the stack: its "two gateway instances" are the proxy's two ports
 * twice (the proxy spreads calls over the gateway replicas), the production operator key is the stack's.
 * The suite speaks HTTP only: it gets no database and no broker, as unit specs get none (jest.setup.js).
 */
function operatorSuite(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JEST_SUITE: 'all',
    OPERATOR_GATEWAY_URLS: `${publicUrl},${publicUrl}`,
    OPERATOR_GATEWAY_ADMIN_URLS: `${operatorUrl},${operatorUrl}`,
    PRODUCTION_ADMIN_API_KEY: adminKey(),
    DATABASE_URL: 'postgresql://the-compose-e2e-suite-has-no-database@127.0.0.1:9/none',
    KAFKA_BROKERS: '127.0.0.1:9',
  };
  // No sandbox gateway in a production stack: the suite's one check against it does not apply.
  delete env.GATEWAY_URL;
  const child = spawn(
    join(root, 'node_modules/.bin/jest'),
    ['-c', 'apps/e2e/jest.e2e.config.js', '--runInBand', 'apps/e2e/src/operator-api.spec.ts'],
    { cwd: root, env, stdio: 'inherit' },
  );
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`apps/e2e/src/operator-api.spec.ts: jest exited with ${code}`)),
    ),
  );
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

  const send = async (key: string): Promise<number> => {
    const sentAt = Date.now();
    try {
      const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawal(partner.document, key));
      if (res.status === 201 || res.status === 200) {
        accepted.add(String(res.body.id));
        pending.delete(key);
        if (killedAt && !recoveredAt && sentAt > killedAt) recoveredAt = Date.now();
      } else if (res.status >= 500) pending.add(key);
      else throw new Error(`withdrawal refused: ${res.status} ${JSON.stringify(res.body)}`);
      return res.status;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('withdrawal refused')) throw error;
      pending.add(key);
      return 0;
    }
  };
  const worker = async () => {
    while (!stop) {
      await send(newUuid());
      await sleep(150);
    }
  };
  const workers = Array.from({ length: 3 }, worker);

  const recoveries: string[] = [];
  /** Stops the withdrawals service one way, starts it again another (or lets Docker), and times the outage. */
  const outage = async (what: string, stopIt: (container: string) => void, startIt: () => void): Promise<void> => {
    const before = accepted.size;
    await pollUntil(
      `withdrawals accepted before the ${what}`,
      async () => accepted.size,
      (n) => n >= before + 20,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    const victim = containersOf(project, false).find((c) => c.service === 'withdrawals');
    assert(victim, 'no running withdrawals container');
    recoveredAt = 0;
    killedAt = Date.now();
    stopIt(victim.name);
    const startedAt = Date.now();
    startIt();
    const startMs = Date.now() - startedAt;
    await pollUntil(
      `a withdrawal accepted again after the ${what}`,
      async () => recoveredAt,
      (t) => t > 0,
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    const ms = recoveredAt - killedAt;
    // Where the outage went: the start command (for `compose up -d`, the deploy steps it runs again first) and the rest.
    console.log(
      `compose e2e: ${what}: accepting again ${(ms / 1000).toFixed(1)} s after it (start command ${(startMs / 1000).toFixed(1)} s; ` +
        `${accepted.size} withdrawals accepted so far)`,
    );
    if (ms >= RECOVERY_LIMIT_MS) recoveries.push(`${what}: ${ms} ms`);
  };
  // A crash: the app's process dies (SIGKILL from inside); the restart policy brings the container back.
  await outage(
    'crash of the withdrawals process (restart: unless-stopped)',
    (container) => {
      // The exec session dies with the container: its exit status says nothing; the outage below does.
      // The app's command line may carry node flags of its own before the script (docker-compose.yml).
      docker([
        'exec',
        container,
        'sh',
        '-c',
        `for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null | grep -q '^node .*dist/apps/' && kill -9 \${p#/proc/}; done; true`,
      ]);
    },
    () => undefined,
  );
  // `docker kill`: Docker counts it as a deliberate stop and does not restart the container; the operator's
  // `docker compose up -d` does, at once.
  await outage(
    'docker kill of the withdrawals container, then compose up -d',
    (container) => {
      const r = docker(['kill', container]);
      assert(r.status === 0, `docker kill: ${r.stderr}`);
    },
    () => {
      // The stack's own environment (its ports): anything else would recreate the containers it names.
      const r = compose(settings, ['up', '-d', '--no-build', 'withdrawals'], composeEnv(settings));
      assert(r.status === 0, `compose up -d withdrawals: ${r.stderr}`);
    },
  );
  // A little more load on the recovered stack, then stop.
  const total = accepted.size;
  await pollUntil(
    'load after the recovery',
    async () => accepted.size,
    (n) => n >= total + 10,
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  stop = true;
  await Promise.all(workers);
  // A careful partner retries every request without a final answer with the same key.
  await pollUntil(
    'every request answered for good',
    async () => {
      for (const key of [...pending]) await send(key);
      return pending.size;
    },
    (n) => n === 0,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  console.log(`compose e2e: ${accepted.size} withdrawals accepted in all`);
  assert(recoveries.length === 0, `recovery over ${RECOVERY_LIMIT_MS} ms: ${recoveries.join('; ')}`);
  await auditSettled(partner, accepted, 120_000);
}

/** The project's containers, networks and volumes the engine still has. */
function leftovers(): string[] {
  const label = `label=com.docker.compose.project=${project}`;
  return [
    ...docker(['ps', '-a', '--filter', label, '--format', 'container {{.Names}}']).stdout.split('\n'),
    ...docker(['network', 'ls', '--filter', label, '--format', 'network {{.Name}}']).stdout.split('\n'),
    ...docker(['volume', 'ls', '--filter', label, '--format', 'volume {{.Name}}']).stdout.split('\n'),
  ].filter(Boolean);
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
  if (leftovers().length > 0) composeDown(settings);

  const up = await check('compose:up brings the stack up in production mode on local chains, every service ready', async () => {
    await composeUp(settings);
  });
  if (up) {
    await check('the public port serves the partner API, /docs and /healthz, and nothing else, even with the operator key', async () => {
      expectEqual('GET /healthz', (await fetch(`${publicUrl}/healthz`)).status, 200);
      expectEqual('GET /docs', (await fetch(`${publicUrl}/docs`)).status, 200);
      expectEqual('GET /partner/v1/events without a key', (await fetch(`${publicUrl}/partner/v1/events`)).status, 401);
      const headers = { 'x-admin-key': adminKey(), 'content-type': 'application/json' };
      for (const [method, path] of [
        ['GET', '/readyz'],
        ['GET', '/metrics'],
        ['GET', '/admin/v1/audit-log'],
        ['POST', '/admin/v1/partners'],
        ['GET', '/internal/queries'],
        ['POST', '/sandbox/v1/partners'],
        ['GET', '/'],
      ]) {
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
      const published = docker([
        'port',
        containersOf(project, false).find((c) => c.service === 'proxy')?.name ?? 'proxy',
        '8081',
      ]).stdout.trim();
      assert(/^127\.0\.0\.1:/.test(published), `the operator port is published on ${published}, not on the loopback only`);
    });

    await check('the apps run as node on Node 24; each database role reaches its own schema only', () => {
      for (const c of containersOf(project, false).filter((c) => ['gateway', ...SERVICE_NAMES].includes(c.service))) {
        expectEqual(`${c.service}: user`, docker(['exec', c.name, 'id', '-un']).stdout.trim(), 'node');
        assert(docker(['exec', c.name, 'node', '--version']).stdout.startsWith('v24.'), `${c.service}: not on Node 24`);
      }
      const postgres = containersOf(project, false).find((c) => c.service === 'postgres')?.name;
      assert(postgres, 'no running postgres container');
      const schemas = ['gateway', ...SERVICE_NAMES].map(pgSchemaOf);
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
        const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', {
          ...withdrawal(partner.document),
          address: destination,
          network: 'ETH',
        });
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

    if (process.env.COMPOSE_E2E_JEST !== 'false') {
      await check('apps/e2e operator suite against the operator port', operatorSuite);
    }

    await check(
      `docker kill of the withdrawals container under load: accepting again within ${RECOVERY_LIMIT_MS / 1000} s, every accepted withdrawal settled once`,
      killDuringLoad,
    );
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
