/**
 * `npm start`: the whole stack in the foreground (docs/development.md, "The local stack"); Ctrl-C stops it.
 * Sandbox by default; `SANDBOX=false` runs it as production would (docs/api.md: "Operator API"). Run as
 * `node --import tsx`: the tsx command SIGKILLs a child that has not acknowledged a Ctrl-C within ~60 ms.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildInputs, buildStaleness, describeChanges, NX_BUILD, nxEnv, recordBuild } from '../lib/build-stamp';
import { APPS, AppName, DEV_DICT_PORT, DEV_PIX_API_PORT, healthPortOf, pgSchemaOf, repoRoot } from '../lib/services';
import { DbRoles, ensureKafka, recreateDatabase, runInBackground, RunningStack, serviceRoles, StackOptions, startApps } from './stack';
import { chainAppEnv, DEV_BLOCK_TIME_MS, DEV_CHAIN_TIMINGS, devHotWalletKeyFiles } from '../chain/chain-env';
import { DEV_CHAIN_PORTS, ensureHotWalletKeys, ensureLocalChains, LocalChain, LocalNetwork } from '../chain/local-chains';
import { DEV_DICT_TIMINGS, startStackDict } from '@partner/dict-test-server';
import { startStackPixApi } from '@partner/pix-api-test-server';
import { DEV_SINKS, sinkAppEnv, startSinks, withoutCredentials } from '@partner/notification-sinks';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one phase of the start and prints one line when it is done: `start: build 0.3 s (up to date)`. */
async function phase<T>(name: string, work: () => Promise<T>, outcome: (result: T) => string = String): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`start: ${name} ${seconds(performance.now() - started)} (${outcome(result)})`);
  return result;
}

/** The Nx build only when an input or dist/ changed since this last ran it (scripts/lib/build-stamp.ts). */
async function buildIfStale(root: string): Promise<string> {
  const why = buildStaleness(root);
  if (why.length === 0) return 'up to date';
  const inputs = buildInputs(root);
  await runInBackground(join(root, 'node_modules/.bin/nx'), NX_BUILD, nxEnv());
  recordBuild(root, inputs);
  return `nx build: ${describeChanges(why)}`;
}

/** Pending migrations, in this process (scripts/db/migrate.ts), and every app's role password. */
async function migrateIfPending(databaseUrl: string, roles?: DbRoles): Promise<string> {
  const { migrateDatabase } = await import('../db/migrate');
  const passwords = Object.fromEntries(Object.entries(roles ?? {}).map(([app, password]) => [pgSchemaOf(app as AppName), password]));
  return migrateDatabase(databaseUrl, { passwords });
}

/** When the dev database paid on a chain the running nodes do not have (another genesis), it starts afresh to match. */
async function matchDatabaseToChains(databaseUrl: string, chains: Record<LocalNetwork, LocalChain>, roles?: DbRoles): Promise<string> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows: recorded } = await client
    .query<{ network: string; genesis_hash: string }>('SELECT network, genesis_hash FROM withdrawals.hot_wallets')
    .finally(() => client.end());
  const forgotten = recorded.filter(
    (r) => chains[r.network as LocalNetwork] && chains[r.network as LocalNetwork].genesisHash !== r.genesis_hash,
  );
  if (forgotten.length === 0) return 'the database matches the chains';
  await recreateDatabase(databaseUrl);
  await migrateIfPending(databaseUrl, roles);
  return `the local chains are new (a restarted node forgets its chain): the dev database was reset to match`;
}

/** When each app first answers its /readyz with 200 (its database, its consumers in their groups), in ms from now. */
function timeReadiness(o: StackOptions): { stop: () => void; readyAfter: Map<AppName, number> } {
  const started = performance.now();
  const readyAfter = new Map<AppName, number>();
  let stopped = false;
  const poll = async (app: AppName) => {
    while (!stopped) {
      const res = await fetch(`http://127.0.0.1:${healthPortOf(app, o.healthPortBase)}/readyz`, {
        signal: AbortSignal.timeout(2_000),
      }).catch(() => undefined);
      if (res?.status === 200) return void readyAfter.set(app, performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  APPS.forEach((app) => void poll(app));
  // Stopped once the whole stack is ready: an app not seen yet (between two polls) was ready by then.
  const stop = () => {
    stopped = true;
    for (const app of APPS) if (!readyAfter.has(app)) readyAfter.set(app, performance.now() - started);
  };
  return { stop, readyAfter };
}

/** What a Ctrl-C stops: the apps (from the moment their processes exist) and the in-process servers. */
const running: { stacks: RunningStack[]; close: Array<() => Promise<void>> } = { stacks: [], close: [] };
let interrupted = false;

/**
 * The first SIGINT, SIGTERM or SIGHUP stops everything, from any phase: every stack is marked stopping at once,
 * before the apps' own exits reach the supervisor. Later signals are ignored; the broker and chains keep running.
 */
function stopOnSignals(): void {
  const shutdown = async () => {
    if (interrupted) return;
    interrupted = true;
    const stopping = performance.now();
    await Promise.all(running.stacks.map((stack) => stack.stop()));
    await Promise.all(running.close.map((close) => close().catch(() => undefined)));
    console.log(`stop: the apps, DICT and the sinks stopped in ${seconds(performance.now() - stopping)}`);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown());
}

async function main(): Promise<void> {
  stopOnSignals();
  const root = repoRoot();
  const kafkaPort = Number(process.env.KAFKA_PORT ?? 9092);
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner';
  const gatewayPort = Number(process.env.PORT ?? 3000);
  const sandbox = process.env.SANDBOX !== 'false';
  // Sandbox: a fresh admin key per run unless one is given (printed, never stored in clear); else the operator's own.
  const adminKey = process.env.ADMIN_API_KEY ?? (sandbox ? `adm_dev_${randomBytes(24).toString('base64url')}` : undefined);

  // Each app as its own role (fresh passwords every start), unless DB_ROLES=false (no right to create roles).
  const dbRoles = process.env.DB_ROLES === 'false' ? undefined : serviceRoles();

  // Broker, database, build and chains need nothing of each other: all at once (a warm start only checks each).
  // The hot wallets' development keys (a pool of two unless HOT_WALLET_KEY_FILE names others): each generated
  // once into a git-ignored file (production: Compose secrets).
  const hotWalletKeyFiles = devHotWalletKeyFiles();
  const hotWallets = ensureHotWalletKeys(hotWalletKeyFiles);
  const [, , , chains] = await Promise.all([
    phase('kafka', () => ensureKafka(kafkaPort)),
    phase('migrate', () => migrateIfPending(databaseUrl, dbRoles)),
    phase('build', () => buildIfStale(root)),
    phase(
      'chain',
      () => ensureLocalChains({ ports: DEV_CHAIN_PORTS, hotWallets: hotWallets.map((w) => w.address), blockTimeMs: DEV_BLOCK_TIME_MS }),
      (c) =>
        Object.values(c)
          .map((x) => `${x.network} ${x.started ? 'started' : 'already running'} on ${x.rpcUrl}`)
          .join(', '),
    ),
  ]);
  await phase('chain check', () => matchDatabaseToChains(databaseUrl, chains, dbRoles));
  // The DICT test server (tools/dict-test-server/), in this process: pix-keys registers keys through it.
  const dict = await phase(
    'dict',
    () => startStackDict({ name: 'dev', port: DEV_DICT_PORT, timings: DEV_DICT_TIMINGS }),
    (d) => `the DICT test server on ${d.server.url}`,
  );
  running.close.push(() => dict.server.close());
  // The Pix API test server (tools/pix-api-test-server/), in this process: inflows asks refunds of inflows there.
  const pixApi = await phase(
    'pix api',
    () => startStackPixApi({ port: DEV_PIX_API_PORT }),
    (p) => `the Pix API test server on ${p.server.url}`,
  );
  running.close.push(() => pixApi.server.close());

  // The owner notifier's local sinks (tools/notification-sinks), unless SMTP_URL or TWILIO_API_URL name other servers.
  const sinks = await phase(
    'notify sinks',
    () => startSinks({ ...DEV_SINKS, smtpPort: process.env.SMTP_URL ? null : DEV_SINKS.smtpPort, smtpPortTakenMeansServer: true }),
    (s) =>
      `SMTP ${s.smtpUrl ?? (s.smtpSkipped || `not started: SMTP_URL is ${withoutCredentials(process.env.SMTP_URL)}`)}, Twilio API ${s.httpUrl}`,
  );
  running.close.push(() => sinks.stop());
  const { SMTP_URL, ...twilioSink } = sinkAppEnv(sinks, DEV_SINKS);
  // Gives up on a failing server within half a minute, not production's two hours (docs/operations/notifications.md).
  const devRetries = {
    NOTIFY_MAX_ATTEMPTS: '5',
    NOTIFY_RETRY_BASE_MS: '2000',
    NOTIFY_RETRY_MAX_MS: '10000',
    NOTIFY_SEND_TIMEOUT_MS: '5000',
  };
  const notifyEnv = {
    ...(SMTP_URL ? { SMTP_URL } : {}),
    ...(process.env.TWILIO_API_URL ? {} : twilioSink),
    ...Object.fromEntries(Object.entries(devRetries).filter(([name]) => process.env[name] === undefined)),
  };

  const options: StackOptions = {
    kafkaPort,
    databaseUrl,
    gatewayPort,
    healthPortBase: Number(process.env.HEALTH_PORT_BASE ?? 3100),
    dbRoles,
    env: {
      SANDBOX: String(sandbox),
      ...(adminKey ? { ADMIN_API_KEY: adminKey } : {}),
      ...chainAppEnv(chains, hotWalletKeyFiles, DEV_CHAIN_TIMINGS),
      ...dict.env,
      ...pixApi.env,
      ...notifyEnv,
    },
    prettyLogs: process.env.LOG_PRETTY !== 'false',
    compileCache: process.env.APP_COMPILE_CACHE === 'false' ? undefined : join(root, '.cache', 'compile-cache'),
  };
  const readiness = timeReadiness(options);
  const stack = await phase(
    'apps',
    () => startApps(options, 0, (s) => running.stacks.push(s)).finally(readiness.stop),
    () =>
      [...readiness.readyAfter]
        .sort((a, b) => a[1] - b[1])
        .map(([app, ms]) => `${app} ${seconds(ms)}`)
        .join(', '),
  );
  // STACK_INSTANCES=2 (or more): further instances of every app, sharing the services' consumer groups.
  const instances = Math.max(1, Number(process.env.STACK_INSTANCES ?? 1));
  const more: RunningStack[] = [];
  for (let i = 1; i < instances; i++) more.push(await startApps(options, i, (s) => running.stacks.push(s)));

  console.log(`start: ready in ${seconds(performance.now())} (from the process's start)`);

  const shownKey = adminKey && !process.env.ADMIN_API_KEY ? adminKey : '$ADMIN_API_KEY';
  console.log(`
  Partner API ready: ${stack.gatewayUrl}/partner/v1   (docs: ${stack.gatewayUrl}/docs; the public port)
  Operator URL:      ${stack.adminUrl}   /admin/v1, /readyz, /metrics (the operator port, never exposed to partners)
                     X-Admin-Key: ${adminKey && !process.env.ADMIN_API_KEY ? adminKey : '(your ADMIN_API_KEY or operator key)'}
  Mode:              ${sandbox ? 'sandbox (/sandbox/v1 helpers on; sandbox keys, refused by production)' : 'SANDBOX=false (no sandbox routes; production keys)'}${more.map((m, i) => `\n  Instance ${i + 2}:        ${m.gatewayUrl}/partner/v1   (operator ${m.adminUrl})`).join('')}
  Try:  curl -s -X POST ${stack.adminUrl}/admin/v1/partners -H "X-Admin-Key: ${shownKey}" -H 'Content-Type: application/json' -d '{"name":"acme"}'
  Chains:            ${Object.values(chains)
    .map((c) => `${c.network} ${c.rpcUrl} (chain ${c.chainId}, USDT ${c.tokenAddress})`)
    .join('; ')}
  Notifications:     e-mails to ${sinks.smtpUrl ?? withoutCredentials(process.env.SMTP_URL) ?? 'smtp://127.0.0.1:1025'}, SMS to ${process.env.TWILIO_API_URL ?? sinks.httpUrl}; what the sinks got: npm run notify -- list
  Hot wallets:       ${hotWallets.map((w) => `${w.address} (key in ${w.keyFile})`).join('\n                     ')}
                     fund each: npm run chain -- fund MATIC 1000 (one: add --wallet <address>)
  Pix API:           ${pixApi.server.url} (the Pix API test server: refunds of inflows are returned there)
  DICT:              ${dict.server.url} (the DICT test server, operator ISPB ${dict.env.DICT_ISPB}; CPF 00000000191 is held at another institution)
  Ctrl-C stops the apps (the broker and the chains keep running: npm run kafka -- stop, npm run chain -- stop).
`);
}

main().catch((error: unknown) => {
  if (interrupted) return; // a phase cut short by Ctrl-C: the shutdown exits
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
