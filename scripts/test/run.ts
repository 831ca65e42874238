/**
 * `npm test`: every suite against infrastructure of its own, beside a dev stack (docs/development.md, "Tests"):
 * a fresh broker and database; migrate, build; typecheck, lint, the OpenAPI checks; the unit suites as
 * `nx run-many -t test` runs them (unit-suites.ts); every project's unit and integration specs in one Jest
 * run; the whole stack from the runtime tree and the e2e suites; then two instances (two-instances.ts).
 * The last line is `N passed, N failed`. `npm test -- <path patterns>`: only the matching Jest suites.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { pollUntil } from '../../libs/testing/src/lib/poll';
import { prepareRuntimeTree } from '../lib/runtime-tree';
import {
  APPS,
  AppName,
  healthPortOf,
  repoRoot,
  SERVICES,
  TEST_DATABASE_URL,
  TEST_DICT_PORT,
  TEST_KAFKA_PORT,
  TEST_PIX_API_PORT,
} from '../lib/services';
import { Totals, twoInstances } from './two-instances';
import { startTestInfra, stopTestInfra } from './infra';
import { unitSuitesTouchNothing } from './unit-suites';
import { StackDict, startStackDict, TEST_DICT_TIMINGS } from '@partner/dict-test-server';
import { StackPixApi, startStackPixApi } from '@partner/pix-api-test-server';
import { RunningSinks, sinkAppEnv, startSinks, TEST_SINKS } from '@partner/notification-sinks';

import {
  busAdminEnv,
  busPasswordFile,
  kafkaInBackground,
  killApp,
  killKafka,
  restartApp,
  restartKafka,
  RunningStack,
  serviceRoles,
  StackOptions,
  startApps,
  TEST_STACK_ENV,
  startGatewayInstances,
  stopApp,
  INTERNAL_SECRET,
  waitUntilReady,
} from '../stack/stack';
import { buildWorkspace } from '../lib/build-stamp';

const root = repoRoot();
const kafkaPort = TEST_KAFKA_PORT;
const databaseUrl = TEST_DATABASE_URL;
const gatewayPort = Number(process.env.TEST_GATEWAY_PORT ?? 13000);
const healthPortBase = Number(process.env.TEST_HEALTH_PORT_BASE ?? 13100);
// Where tools/e2e/src/tracing.spec.ts receives the stack's spans (OTLP/HTTP JSON).
const otlpPort = Number(process.env.TEST_OTLP_PORT ?? 13318);
const outDir = join(root, '.cache', 'test');
const only = process.argv.slice(2).filter((a) => a !== '--');
const onlyArgs = only.length > 0 ? ['--passWithNoTests', ...only] : [];
// The response-contract suite checks the answers of whichever e2e suites ran: always run it last.
const e2eOnlyArgs = only.length > 0 ? [...onlyArgs, 'tools/e2e/src/response-contract'] : [];
const adminKey = `adm_test_${randomBytes(18).toString('base64url')}`;
// The production gateways' ADMIN_API_KEY: the sandbox's key is stored as a sandbox key, which they refuse
// (docs/adr/0019-production-safe-by-default.md); 32+ characters, as production requires.
const productionAdminKey = `adm_prod_${randomBytes(32).toString('base64url')}`;
// The production gateways' secret shared with the Pix provider (tools/e2e/src/pix-provider-ingestion.spec.ts signs with it).
const pixProviderSecret = randomBytes(32).toString('hex');
const dbRoles = serviceRoles();

/** A whole-workspace check that counts as one test. */
function check(label: string, command: string, args: string[]): Totals {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  console.log(`${label}: ${result.status === 0 ? 'passed' : 'FAILED'}`);
  return result.status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

/** Runs Jest with JSON results; a suite that cannot even load counts as one failure. */
async function jest(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<Totals> {
  const resultFile = join(outDir, `jest-${label}.json`);
  rmSync(resultFile, { force: true });
  // Not spawnSync: this process must stay responsive meanwhile (the stack control server, the apps' log pipes).
  const child = spawn(join(root, 'node_modules/.bin/jest'), [...args, '--json', `--outputFile=${resultFile}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  await new Promise((resolve) => child.once('exit', resolve));
  try {
    const r = JSON.parse(readFileSync(resultFile, 'utf8'));
    // A suite failed without a failed test (it could not load, its beforeAll threw) fails the run too.
    const brokenSuites = r.testResults.filter(
      (s: { status: string; assertionResults: Array<{ status: string }> }) =>
        s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed'),
    ).length;
    return { passed: r.numPassedTests, failed: r.numFailedTests + brokenSuites + (r.numPendingTests ?? 0) };
  } catch {
    console.error(`${label}: Jest produced no results`);
    return { passed: 0, failed: 1 };
  }
}

async function main(): Promise<number> {
  mkdirSync(outDir, { recursive: true });
  const totals: Totals = { passed: 0, failed: 0 };
  const add = (t: Totals) => {
    totals.passed += t.passed;
    totals.failed += t.failed;
  };
  const testEnv: Record<string, string> = {
    KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
    // The specs' own clients (topics of their own, the dead-letter producer) are the broker's super user.
    ...busAdminEnv(kafkaPort),
    DATABASE_URL: databaseUrl,
    GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
    ADMIN_API_KEY: adminKey,
    LOG_LEVEL: 'warn',
    // Unit and integration specs both (jest.preset.js); `npx nx test <project>` runs the unit ones only.
    JEST_SUITE: 'all',
  };

  let stack: RunningStack | undefined;
  let dict: StackDict | undefined;
  let pixApi: StackPixApi | undefined;
  let operatorGateways: RunningStack[] = [];
  let control: Server | undefined;
  let sinks: RunningSinks | undefined;
  try {
    // A fresh broker, database and chains. The apps connect as their own roles, as deployed; the specs as the owner.
    const chainEnv = await startTestInfra(dbRoles);
    // The integration specs pay on the same chains (apps/withdrawals' payout specs read these).
    Object.assign(testEnv, chainEnv);
    buildWorkspace(root);
    // Whole-workspace checks, one test each (tsconfig.json includes the specs: the type tests live there).
    const tsx = join(root, 'node_modules/.bin/tsx');
    for (const [label, command, args] of [
      ['typecheck', join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit']],
      ['lint (format, type-aware rules, module boundaries)', tsx, [join(root, 'scripts/lint.ts')]],
      ['OpenAPI document up to date (else: npm run openapi)', tsx, [join(root, 'scripts/openapi/openapi.ts'), 'check']],
      ['OpenAPI lint (Redocly CLI, redocly.yaml)', tsx, [join(root, 'scripts/openapi/openapi.ts'), 'lint']],
    ] as const)
      add(check(label, command, [...args]));

    // The per-project unit suites as Nx runs them, with nothing to connect to (on a full run only).
    if (only.length === 0) add(await unitSuitesTouchNothing(root));

    // jest.config.js holds every project but e2e, which runs below against the started stack.
    add(await jest('unit-integration', ['-c', 'jest.config.js', '--runInBand', ...onlyArgs], testEnv));

    // The owner notifier's sinks on the test ports (owner-notifications.spec.ts reads them: NOTIFY_SINK_URL).
    sinks = await startSinks({ ...TEST_SINKS });
    const logDir = join(outDir, 'logs'); // this run's only: request-ids.spec.ts reads them
    rmSync(logDir, { recursive: true, force: true });
    mkdirSync(logDir, { recursive: true });
    dict = await startStackDict({
      name: 'test',
      port: TEST_DICT_PORT,
      timings: TEST_DICT_TIMINGS,
      logFile: join(logDir, 'dict-test-server.log'),
    });
    // Refunds of inflows are returned through it (POST /partner/v1/pix-in/{end_to_end_id}/refunds), settled in 300 ms.
    pixApi = await startStackPixApi({ port: TEST_PIX_API_PORT, settleAfterMs: 300, logFile: join(logDir, 'pix-api-test-server.log') });
    const stackOptions: StackOptions = {
      // The apps run as the image runs them: dist/ and production dependencies only (npm ci).
      appRoot: prepareRuntimeTree(root),
      kafkaPort,
      databaseUrl,
      gatewayPort,
      healthPortBase,
      logDir,
      dbRoles,
      env: {
        ...TEST_STACK_ENV,
        ADMIN_API_KEY: adminKey,
        // A line per request and per message handled, with request_id: request-ids.spec.ts looks for them.
        LOG_LEVEL: 'debug',
        ...chainEnv,
        ...dict.env,
        ...pixApi.env,
        PIX_API_POLL_MS: '100',
        ...sinkAppEnv(sinks, TEST_SINKS),
        NOTIFY_POLL_MS: '100',
        // Every suite sends from one address: only the flood suite's instance throttles unknown keys.
        AUTH_FAILURES_PER_SECOND: '100000',
        AUTH_FAILURE_BURST: '100000',
        // A revoked key refused within 2 minutes was dropped by the broadcast (internal-trust.spec.ts), whatever the load.
        OPERATOR_KEY_CACHE_MS: '120000',
        // Tracing only for requests with a sampled traceparent (the tracing suite's): otherwise nothing exported.
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_always_off',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    };
    stack = await startApps(stackOptions);
    // The production shape beside it: two SANDBOX=false gateways on the same services (operator-api.spec.ts, operator-port.spec.ts).
    operatorGateways = await startGatewayInstances(
      stackOptions,
      [1, 2].map((i) => ({ port: gatewayPort + i, adminPort: healthPortBase + 50 + i })),
      {
        SANDBOX: 'false',
        ADMIN_API_KEY: productionAdminKey,
        ADMIN_RATE_LIMIT_PER_SECOND: '1000',
        ADMIN_RATE_LIMIT_BURST: '1000',
        AUTH_FAILURES_PER_SECOND: '5',
        AUTH_FAILURE_BURST: '20',
        PIX_PROVIDER_WEBHOOK_SECRET: pixProviderSecret,
      },
    );
    control = await controlServer(stack, stackOptions);
    const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
    // Where each service's /healthz, /readyz and /metrics answer (tools/e2e/src/operations.spec.ts).
    const serviceHealthUrls = JSON.stringify(
      Object.fromEntries(SERVICES.map((s) => [s, `http://127.0.0.1:${healthPortOf(s, healthPortBase)}`])),
    );
    const e2eEnv = {
      ...testEnv,
      STACK_CONTROL_URL: controlUrl,
      // Each principal's password file (bus-acls.spec.ts plays each app, and one that is none).
      BUS_PASSWORD_DIR: dirname(busPasswordFile(kafkaPort, 'admin')),
      GATEWAY_ADMIN_URL: stack.adminUrl,
      SERVICE_HEALTH_URLS: serviceHealthUrls,
      STACK_LOG_DIR: logDir,
      OPERATOR_GATEWAY_URLS: operatorGateways.map((g) => g.gatewayUrl).join(','),
      OPERATOR_GATEWAY_ADMIN_URLS: operatorGateways.map((g) => g.adminUrl).join(','),
      PRODUCTION_ADMIN_API_KEY: productionAdminKey,
      PIX_PROVIDER_WEBHOOK_SECRET: pixProviderSecret,
      OTLP_RECEIVER_PORT: String(otlpPort),
      NOTIFY_SINK_URL: sinks.httpUrl,
      INTERNAL_SECRET, // operations.spec.ts signs its direct queries as the gateway does
      ...dict.env,
    };
    add(await jest('e2e', ['-c', 'tools/e2e/jest.e2e.config.js', '--runInBand', ...e2eOnlyArgs], e2eEnv));
    // Scale-out: the concurrency proofs and the feed's suite again with two instances of every app (full runs).
    if (only.length === 0) add(await twoInstances(stack, stackOptions, kafkaPort, jest, e2eEnv));
  } finally {
    control?.close();
    await Promise.all(operatorGateways.map((g) => g.stop()));
    await stack?.stop();
    await dict?.server.close();
    await pixApi?.server.close();
    await sinks?.stop();
    await stopTestInfra().catch(() => undefined);
  }
  console.log(`(app logs of the e2e stack: ${join(outDir, 'logs')})`);
  if (only.length > 0) console.log(`(only the suites matching ${only.join(' ')})`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  return totals.failed === 0 && totals.passed > 0 ? 0 : 1;
}

/**
 * The e2e stack's control channel for tools/e2e/src/chaos.spec.ts, on an ephemeral localhost port:
 * POST /kill|stop|restart/<app|kafka> (kill -9, graceful stop, start again and wait until ready), and
 * POST /crash/<app>: kill -9 behind the supervisor's back, answered once it restarted the app (ADR 0015).
 */
function controlServer(stack: RunningStack, o: StackOptions): Promise<Server> {
  const actions: Record<string, (target: string) => Promise<void>> = {
    kill: (target) => (target === 'kafka' ? killKafka(o.kafkaPort) : killApp(stack, target as AppName)),
    stop: (target) => (target === 'kafka' ? kafkaInBackground('stop', o.kafkaPort) : stopApp(stack, target as AppName)),
    restart: (target) => (target === 'kafka' ? restartKafka(stack, o, 90_000) : restartApp(stack, target as AppName, o, 90_000)),
    crash: (target) => crashApp(stack, target as AppName),
  };
  const server = createServer((req, res) => {
    const [, action, target] = (req.url ?? '').split('/');
    if (req.method !== 'POST' || !(action in actions) || !['kafka', ...APPS].includes(target)) {
      res.writeHead(404).end();
      return;
    }
    actions[action](target).then(
      () => res.writeHead(204).end(),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** kill -9 of an app without telling the supervisor, then waits for the supervisor's restart and a ready stack. */
async function crashApp(stack: RunningStack, app: AppName): Promise<void> {
  const victim = stack.processes.get(app);
  if (!victim || victim.exitCode !== null) throw new Error(`${app} is not running`);
  victim.kill('SIGKILL');
  const running = async () => stack.processes.get(app);
  await pollUntil(`${app} started again by the supervisor`, running, (p) => p !== victim, { timeoutMs: 90_000 });
  await waitUntilReady(stack, 90_000);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
