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
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { auditWithdrawals, chaosFailures, chaosPartners, chaosReport, databaseOutage, WithdrawalLoad } from '@partner/testing';
import { APPS, repoRoot } from '../lib/services';
import { kafka, kafkaInBackground, killApp, killKafka, migrate, recreateDatabase, restartApp, restartKafka, RunningStack, StackOptions, startApps, waitUntilReady } from '../stack/stack';

const root = repoRoot();
const kafkaPort = Number(process.env.CHAOS_KAFKA_PORT ?? 57092);
const databaseUrl = process.env.CHAOS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_chaos';
const gatewayPort = Number(process.env.CHAOS_GATEWAY_PORT ?? 19500);
const healthPortBase = Number(process.env.CHAOS_HEALTH_PORT_BASE ?? 19600);
const adminKey = `adm_chaos_${randomBytes(18).toString('base64url')}`;
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const PARTNERS = 12;
const WORKERS = 8;
const PACE_MS = 500; // each worker's pause: ~15 requests/s in all on this machine

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
    // ...but through the shared store, so that the database outage also hits it.
    RATE_LIMIT_STORE: 'postgres',
  },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}`);

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
    const partners = await chaosPartners(gatewayUrl, adminKey, PARTNERS);
    log(`stack ready; ${partners.length} partners; load starts`);
    const load = new WithdrawalLoad(gatewayUrl, partners, { workers: WORKERS, paceMs: PACE_MS });
    load.start();
    await load.progress(50);

    const fault = async (label: string, inject: () => Promise<void>) => {
      const started = Date.now();
      log(`fault: ${label}`);
      await inject();
      faults.push(label);
      log(`  recovered in ${((Date.now() - started) / 1000).toFixed(1)} s; requests so far ${load.requests}, accepted ${load.accepted.size}, unanswered ${load.unansweredCount}`);
      await load.progress(50); // the load runs on the recovered stack before the next fault
    };
    for (const app of APPS) {
      await fault(`kill -9 ${app}, restart`, async () => {
        await killApp(running, app);
        await sleep(1_000);
        await restartApp(running, app, options);
      });
    }
    await fault('Kafka broker restart (stop, start)', async () => {
      await kafkaInBackground('stop', kafkaPort);
      await sleep(2_000);
      await restartKafka(running, options);
    });
    await fault('kill -9 of the Kafka broker, start', async () => {
      await killKafka(kafkaPort);
      await sleep(2_000);
      await restartKafka(running, options);
    });
    await fault('database outage (every connection terminated for 5 s)', async () => {
      const terminated = await databaseOutage(databaseUrl, 5_000);
      log(`  ${terminated} connections terminated`);
      await waitUntilReady(running, 60_000);
    });
    await load.stop();
    log(`load stopped: ${load.requests} requests; retrying those without a final answer`);

    const retry = await load.retryUnanswered(120_000);
    const audit = await auditWithdrawals({ gatewayUrl, databaseUrl, partners, accepted: load.accepted.values(), settleTimeoutMs: 180_000 });
    console.log(`\n${chaosReport(faults, load, retry, audit)}`);
    failures.push(...chaosFailures(load, retry, audit));
  } catch (error) {
    failures.push(`chaos run aborted: ${(error as Error).stack ?? String(error)}`);
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
