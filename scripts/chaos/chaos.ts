/**
 * `npm run chaos [-- --no-build] [--rate R] [--partners P] [--users U]`: fault injection against a real
 * stack of its own (Kafka 57092, database partner_chaos, gateway 19500 and a second gateway instance on
 * 19501, health ports 19601..; override with CHAOS_* variables).
 *
 * The load is a partner's whole day through the partner API, at a fixed rate (open loop; by default half
 * of the closed-loop peak measured on this machine in the first seconds): USDT withdrawals on few users
 * whose balances run out (some are refused for insufficient funds), operator credits arriving meanwhile,
 * Pix key creations and deletions, business customers, sandbox Pix inflows and feed acknowledgements.
 * The faults, one after another, each followed by load on the recovered stack: kill -9 of every app and a
 * restart; two graceful broker restarts and two kill -9 of the broker; a database outage (the PostgreSQL
 * server is shared with other work on this machine, so every connection of the stack to its database is
 * terminated repeatedly instead: what the services see of a PostgreSQL restart); and a rolling restart
 * (SIGTERM of one app at a time, started again and ready before the next, with traffic flowing).
 *
 * Afterwards every answer that was not final (503, no answer) is retried with the SAME idempotency key,
 * and once everything settled: the money audit (per user, balance = credits − accepted withdrawals with
 * their fees, the ledger sums to the balance and never went below zero), every feed event exactly once in
 * its partner's sequence on every path, counted against what the API accepted, the rolling restart with
 * no failure other than a 503 carrying Retry-After, and each recovery within its bound (app 10 s, broker
 * 20 s). Prints the counts; exits 1 when an invariant fails.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import {
  auditFeeds,
  auditMoney,
  ChaosOutcome,
  chaosFailures,
  chaosPartners,
  chaosReport,
  databaseOutage,
  FaultRecovery,
  GatewayPool,
  LoadWindow,
  PartnerLoad,
  pollUntil,
  USDT,
  withdrawalRequest,
} from '@partner/testing';
import { APPS, repoRoot } from '../lib/services';
import {
  kafka,
  kafkaInBackground,
  killApp,
  killKafka,
  migrate,
  recreateDatabase,
  restartApp,
  restartKafka,
  RunningStack,
  StackOptions,
  startApps,
  startGatewayInstances,
  stopApp,
  waitUntilReady,
} from '../stack/stack';

const root = repoRoot();
const kafkaPort = Number(process.env.CHAOS_KAFKA_PORT ?? 57092);
const databaseUrl = process.env.CHAOS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_chaos';
const gatewayPort = Number(process.env.CHAOS_GATEWAY_PORT ?? 19500);
const healthPortBase = Number(process.env.CHAOS_HEALTH_PORT_BASE ?? 19600);
const adminKey = `adm_chaos_${randomBytes(18).toString('base64url')}`;
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
/** Recovery bounds, from the restart command to the stack ready and serving again. */
const APP_RECOVERY_MS = 10_000;
const BROKER_RECOVERY_MS = 20_000;
const DATABASE_RECOVERY_MS = 20_000;

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    rate: { type: 'string' },
    partners: { type: 'string', default: '4' },
    users: { type: 'string', default: '3' },
    'peak-seconds': { type: 'string', default: '6' },
  },
});

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
    PIX_DICT_DELAY_MS: '800',
    PIX_DICT_TICK_MS: '100',
    PIX_IN_STEP_DELAY_MS: '200',
    PIX_IN_TICK_MS: '50',
    REQUEST_TIMEOUT_MS: '8000',
    // Chaos measures recovery from faults, not the rate limits (retries come in bursts; credits are operator calls).
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    ADMIN_RATE_LIMIT_PER_SECOND: '100000',
    ADMIN_RATE_LIMIT_BURST: '100000',
    // ...but through the shared store, so that the database outage also hits it.
    RATE_LIMIT_STORE: 'postgres',
  },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * The closed-loop peak of this machine, as `npm run bench` measures it (withdrawals, 32 at a time, each
 * sent as soon as the previous answered), for a few seconds on a partner of its own with plenty of balance.
 */
async function measurePeak(gateways: GatewayPool, seconds: number): Promise<number> {
  const [probe] = await chaosPartners(gatewayUrl, adminKey, 1, 4, 1_000_000 * USDT);
  const closedLoop = async (ms: number) => {
    let answered = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        while (Date.now() < started + ms) {
          const body = withdrawalRequest(probe.users[w % probe.users.length].document);
          const res = await gateways.send('POST', '/partner/v1/withdrawals/usdt', { 'x-api-key': probe.apiKey }, body);
          if (res.status === 201) answered++;
        }
      }),
    );
    return answered / ((Date.now() - started) / 1000);
  };
  await closedLoop(3_000); // unmeasured: a cold stack (JIT, broker, pools) is slower at first, as the bench's warm-up knows
  return closedLoop(seconds * 1000);
}

/**
 * Waits until the peak measurement's burst is worked off (no withdrawal still moving on the simulated
 * chain, no withdrawal event unpublished): the load and the faults start from a steady stack, so the
 * first fault's recovery is not also the burst's backlog.
 */
async function untilQuiet(timeoutMs: number): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const busy = async () =>
      Number(
        (
          await db.query<{ busy: string }>(
            `SELECT (SELECT count(*) FROM withdrawals.withdrawals WHERE state IN ('created', 'sent'))
                  + (SELECT count(*) FROM withdrawals.outbox_messages WHERE published_at IS NULL) AS busy`,
          )
        ).rows[0].busy,
      );
    await pollUntil('the peak measurement worked off', busy, (n) => n === 0, { timeoutMs, intervalMs: 250 });
  } finally {
    await db.end();
  }
}

async function main(): Promise<number> {
  try {
    kafka('stop', kafkaPort);
  } catch {
    /* not running */
  }
  rmSync(join(root, '.cache', 'kafka', `data-${kafkaPort}`), { recursive: true, force: true });
  rmSync(options.logDir as string, { recursive: true, force: true });
  kafka('start', kafkaPort);
  let stack: RunningStack | undefined;
  let second: RunningStack[] = [];
  const failures: string[] = [];
  try {
    await recreateDatabase(databaseUrl);
    migrate(databaseUrl);
    if (!args['no-build']) execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/build.ts')], { stdio: 'inherit' });
    stack = await startApps(options);
    const running = stack;
    // A second gateway instance, as deployed behind the proxy: the load goes to both, so that a planned
    // restart of one (the rolling restart) is invisible to the partners.
    second = await startGatewayInstances(options, [{ port: gatewayPort + 1, adminPort: healthPortBase + 51 }], {});
    const gatewayUrls = [gatewayUrl, second[0].gatewayUrl];

    let rate = Number(args.rate ?? 0);
    if (!rate) {
      const peak = await measurePeak(new GatewayPool(gatewayUrls), Number(args['peak-seconds']));
      rate = Math.max(10, Math.round(peak / 2));
      log(`closed-loop peak ${peak.toFixed(0)} withdrawals/s; the load runs at half: ${rate} requests/s (--rate to choose)`);
      await untilQuiet(60_000);
    }
    const partners = await chaosPartners(gatewayUrl, adminKey, Number(args.partners), Number(args.users));
    log(`stack ready; ${partners.length} partners × ${args.users} users; load starts at ${rate} requests/s`);
    // Credits go to the operator API, on each gateway instance's operator port (ADMIN_PORT), in turn, as
    // an operator's tooling reaches them behind its own balancer: a restarting instance is passed by.
    const load = new PartnerLoad(gatewayUrls, partners, adminKey, { rate, operatorUrls: [running.adminUrl, second[0].adminUrl] });
    load.start();
    const settle = () => load.progress(Math.max(100, rate * 3));
    await settle();

    const faults: FaultRecovery[] = [];
    /** Injects a fault, undoes it with `recover`, and times from the recovery command to ready and a first success. */
    const fault = async (label: string, limitMs: number, inject: () => Promise<void>, recover: () => Promise<void>) => {
      log(`fault: ${label}`);
      await inject();
      const started = Date.now();
      try {
        await recover();
      } catch (error) {
        // Slower than the restart's own deadline: a failed bound, but the run goes on to its audits.
        log(`  not recovered yet: ${(error as Error).message}; waiting longer`);
        await waitUntilReady(running, 300_000);
      }
      await load.firstSuccess(120_000);
      const recoveryMs = Date.now() - started;
      faults.push({ label, recoveryMs, limitMs });
      log(
        `  recovered in ${(recoveryMs / 1000).toFixed(1)} s; requests so far ${load.requests} (${load.achievedRate.toFixed(0)}/s), unanswered ${load.unansweredCount}`,
      );
      await settle(); // the load runs on the recovered stack before the next fault
    };

    for (const app of APPS) {
      await fault(
        `kill -9 ${app}, restart`,
        APP_RECOVERY_MS,
        async () => {
          await killApp(running, app);
          await sleep(1_000);
        },
        () => restartApp(running, app, options),
      );
    }
    for (const round of [1, 2]) {
      await fault(
        `graceful broker restart ${round} (stop, start)`,
        BROKER_RECOVERY_MS,
        async () => {
          await kafkaInBackground('stop', kafkaPort);
          await sleep(2_000);
        },
        () => restartKafka(running, options),
      );
      await fault(
        `kill -9 of the broker ${round}, start`,
        BROKER_RECOVERY_MS,
        async () => {
          await killKafka(kafkaPort);
          await sleep(2_000);
        },
        () => restartKafka(running, options),
      );
    }
    await fault(
      'database outage (every connection terminated for 5 s)',
      DATABASE_RECOVERY_MS,
      async () => log(`  ${await databaseOutage(databaseUrl, 5_000)} connections terminated`),
      () => waitUntilReady(running, 60_000),
    );

    // The rolling restart: one app at a time, SIGTERM, started again and ready before the next. The gateway
    // is first taken out of rotation, as a balancer does before a planned stop (docs/operations.md: a
    // connection the kernel accepts in the instant a port closes is reset, whatever the server does).
    const rolling: LoadWindow = load.openWindow('rolling restart');
    const behindBalancer = [running.gatewayUrl, running.adminUrl];
    for (const app of APPS) {
      await fault(
        `rolling restart: SIGTERM ${app}, start`,
        APP_RECOVERY_MS,
        async () => {
          if (app === 'gateway') load.takeOutOfRotation(...behindBalancer);
          await stopApp(running, app);
        },
        async () => {
          await restartApp(running, app, options);
          load.restore(...behindBalancer);
        },
      );
    }
    load.closeWindow();
    await load.stop();
    log(`load stopped: ${load.requests} requests; retrying those without a final answer`);

    const retry = await load.retryUnanswered(120_000);
    log('every request has its final answer; waiting for every resource to settle, then auditing');
    const feeds = await auditFeeds({ gatewayUrl, databaseUrl, partners, ledger: load.ledger, settleTimeoutMs: 240_000 });
    const money = await auditMoney({ gatewayUrl, operatorUrl: running.adminUrl, databaseUrl, adminKey, partners, ledger: load.ledger });
    const outcome: ChaosOutcome = { faults, load, retry, money, feeds, rolling };
    console.log(`\n${chaosReport(outcome)}`);
    failures.push(...chaosFailures(outcome));
  } catch (error) {
    failures.push(`chaos run aborted: ${(error as Error).stack ?? String(error)}`);
    console.error(failures[failures.length - 1]);
  } finally {
    await Promise.all(second.map((g) => g.stop()));
    await stack?.stop();
    kafka('stop', kafkaPort);
  }
  console.log(`(app logs: ${options.logDir})`);
  console.log(failures.length === 0 ? 'chaos: PASSED' : `chaos: FAILED (${failures.length})`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
