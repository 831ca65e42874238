/**
 * `npm run chaos [-- --no-build] [--rate R] [--partners P] [--users U] [--faults GROUPS]` (`--help`): fault
 * injection against a real stack of its own (Kafka 57092, database partner_chaos, gateway 19500 and a
 * second gateway instance on 19501, health ports 19601..; a local chain node per network on 58545/58546
 * behind fault-injecting proxies on 58555/58556; override with CHAOS_* variables).
 *
 * The load is a partner's whole day through the partner API, at a fixed rate (open loop; by default half
 * of the closed-loop peak measured on this machine in the first seconds): USDT withdrawals on few users
 * whose balances run out (some are refused for insufficient funds), paid by signed USDT transfers on the
 * local chains (Polygon, Ethereum, and some to the blacklisted address, whose transfer reverts), operator
 * credits arriving meanwhile, Pix key creations and deletions, business customers, sandbox Pix inflows and
 * feed acknowledgements. The faults, one after another, each followed by load on the recovered stack:
 * kill -9 of every app and a restart; kill -9 of the withdrawals service at random points of sending, and
 * twice between the commit of signed transactions and their broadcast (the PAYOUT_CRASH_AFTER_SIGN_RATE
 * hook); the chain nodes unreachable, frozen, slow, and answering garbage (libs/testing's chain-proxy.ts: the nodes keep
 * mining); two graceful broker restarts and two kill -9 of the broker; a database outage (the PostgreSQL
 * server is shared with other work on this machine, so every connection of the stack to its database is
 * terminated repeatedly instead: what the services see of a PostgreSQL restart); and a rolling restart
 * (SIGTERM of one app at a time, started again and ready before the next, with traffic flowing).
 *
 * Afterwards every answer that was not final (503, no answer) is retried with the SAME idempotency key,
 * and once everything settled: the money audit (per user, balance = credits − accepted withdrawals with
 * their fees, the ledger sums to the balance and never went below zero), every feed event exactly once in
 * its partner's sequence on every path, counted against what the API accepted, the on-chain audit (read
 * off the nodes: every settled withdrawal one transfer of its amount to its address, a failed one none,
 * no other transfer from the hot wallet, its outflow = the settled amounts: `chain audit: N paid, 0 paid
 * twice, 0 missing, 0 drift`), the rolling restart with no failure other than a 503 carrying Retry-After,
 * and each recovery within its bound (app kill 12 s, app stop 10 s, broker 20 s, the payouts a chain fault interrupted final in 20 s). Prints the
 * counts; exits 1 when an invariant fails.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import {
  auditChain,
  auditFeeds,
  auditMoney,
  ChaosOutcome,
  chaosFailures,
  chaosPartners,
  chaosReport,
  ChainProxyProcess,
  databaseOutage,
  FaultRecovery,
  GatewayPool,
  LoadWindow,
  PartnerLoad,
  pollUntil,
  ProxyCounts,
  ProxyMode,
  USDT,
  withdrawalRequest,
} from '@partner/testing';
import { chainAppEnv, TEST_BLOCK_TIME_MS, TEST_CHAIN_TIMINGS } from '../chain/chain-env';
import {
  ChainPorts,
  ensureHotWalletKey,
  ensureLocalChains,
  LOCAL_NETWORKS,
  LocalChain,
  LocalNetwork,
  stopLocalChains,
} from '../chain/local-chains';
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
  startApp,
  startApps,
  startGatewayInstances,
  stopApp,
  waitUntilReady,
} from '../stack/stack';
import { StackDict, startStackDict, TEST_DICT_TIMINGS } from '@partner/dict-test-server';
import { CHAOS_DICT_PORT } from '../dict/dict-ports';
import { buildWorkspace } from '../lib/build-stamp';

const root = repoRoot();
const kafkaPort = Number(process.env.CHAOS_KAFKA_PORT ?? 57092);
const databaseUrl = process.env.CHAOS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_chaos';
const gatewayPort = Number(process.env.CHAOS_GATEWAY_PORT ?? 19500);
const healthPortBase = Number(process.env.CHAOS_HEALTH_PORT_BASE ?? 19600);
/** The chain nodes (in memory: never killed during the run) and the proxies the apps reach them through. */
const chainPorts: ChainPorts = {
  ETH: Number(process.env.CHAOS_CHAIN_PORT_ETH ?? 58545),
  MATIC: Number(process.env.CHAOS_CHAIN_PORT_MATIC ?? 58546),
};
const proxyPorts: ChainPorts = {
  ETH: Number(process.env.CHAOS_CHAIN_PROXY_PORT_ETH ?? 58555),
  MATIC: Number(process.env.CHAOS_CHAIN_PROXY_PORT_MATIC ?? 58556),
};
/** Where the apps run from: a copy of dist/ of the run's own. */
const appRoot = join(root, '.cache', 'chaos', 'app');
const adminKey = `adm_chaos_${randomBytes(18).toString('base64url')}`;
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
/**
 * Recovery bounds, from the restart command to the stack ready and serving again. A `kill -9` leaves the
 * app's consumer group member to the broker's 6 s session timeout (its minimum) before the restarted
 * process gets its partitions, on top of a start under the chaos load (4-6 s): 12 s. A graceful stop
 * leaves the group at once: 10 s.
 */
const APP_KILL_RECOVERY_MS = 12_000;
const APP_RECOVERY_MS = 10_000;
const BROKER_RECOVERY_MS = 20_000;
const DATABASE_RECOVERY_MS = 20_000;
/** From the end of a chain fault (or the withdrawals service's restart) to every payout it left in flight final (settled or failed). */
const PAYOUT_RECOVERY_MS = 20_000;
/** Each JSON-RPC call's deadline in the apps (CHAIN_RPC_TIMEOUT_MS): a frozen node costs a round this long. */
const RPC_TIMEOUT_MS = 5_000;
/** The slow nodes' delay of every answer, ± jitter: some answers come in time, some after the apps gave up (the node acted anyway). */
const SLOW_MS = 4_500;
const SLOW_JITTER_MS = 2_500;
const FAULT_GROUPS = ['apps', 'chain', 'broker', 'database', 'rolling'] as const;
type FaultGroup = (typeof FAULT_GROUPS)[number];

const USAGE = `npm run chaos [-- options]: fault injection against a stack of its own, then the audits (money, feeds, chain).

  --no-build          use the apps' current build (dist/) instead of building first
  --rate R            requests per second (default: half of the closed-loop peak measured first)
  --partners P        partners of the load (default 4)
  --users U           users per partner (default 3)
  --peak-seconds S    how long the peak is measured (default 6)
  --faults GROUPS     only these fault groups, comma-separated: ${FAULT_GROUPS.join(', ')} (default: all)
  --help              this text

A shorter run while developing (about 3 minutes): npm run chaos -- --no-build --rate 30 --partners 2 --faults chain,database
Ports: CHAOS_KAFKA_PORT (57092), CHAOS_DATABASE_URL (partner_chaos), CHAOS_GATEWAY_PORT (19500, and +1),
CHAOS_HEALTH_PORT_BASE (19600), CHAOS_CHAIN_PORT_ETH/_MATIC (58545/58546), CHAOS_CHAIN_PROXY_PORT_ETH/_MATIC (58555/58556).`;

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    rate: { type: 'string' },
    partners: { type: 'string', default: '4' },
    users: { type: 'string', default: '3' },
    'peak-seconds': { type: 'string', default: '6' },
    faults: { type: 'string', default: FAULT_GROUPS.join(',') },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const groups = new Set(
  String(args.faults)
    .split(',')
    .map((g) => g.trim()),
);
for (const g of groups)
  if (!(FAULT_GROUPS as readonly string[]).includes(g)) throw new Error(`--faults: unknown group ${g} (${FAULT_GROUPS.join(', ')})`);
const runs = (group: FaultGroup) => groups.has(group);

const options: StackOptions = {
  kafkaPort,
  databaseUrl,
  gatewayPort,
  healthPortBase,
  logDir: join(root, '.cache', 'chaos', 'logs'),
  appRoot,
  env: {
    SANDBOX: 'true',
    ADMIN_API_KEY: adminKey,
    LOG_LEVEL: 'warn',
    // The chain settings (nodes behind the proxies, token, hot wallet, timings) are added once the chains run.
    CHAIN_RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
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
 * Waits until the peak measurement's burst is worked off (no withdrawal still being paid on the chain,
 * no withdrawal event unpublished): the load and the faults start from a steady stack, so the
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

/** A query on the stack's database (the withdrawals service's tables), on a connection of its own. */
async function sql<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<T>(text, params)).rows;
  } finally {
    await db.end();
  }
}

/** Withdrawals being paid now: signed (a nonce) and not final. */
const inFlight = async () =>
  Number(
    (
      await sql<{ n: string }>(`SELECT count(*) AS n FROM withdrawals.withdrawals WHERE nonce IS NOT NULL AND state IN ('created', 'sent')`)
    )[0].n,
  );

/** The withdrawals being paid now (signed: a nonce, and not final): what a fault interrupts. */
const payingNow = async () =>
  (await sql<{ id: number }>(`SELECT id FROM withdrawals.withdrawals WHERE nonce IS NOT NULL AND state IN ('created', 'sent')`)).map(
    (r) => r.id,
  );

/**
 * Resolves once every one of `ids` (the payouts a fault interrupted) is final, settled or failed: the
 * payouts took up their work again. Answers how many accepted withdrawals still wait to be signed or
 * sent (the backlog the load built meanwhile, which the payouts work off at their own pace).
 */
async function interruptedFinal(ids: number[], timeoutMs: number): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const open = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `SELECT count(*) AS n FROM withdrawals.withdrawals WHERE id = ANY($1::int[]) AND state IN ('created', 'sent')`,
            [ids],
          )
        ).rows[0].n,
      );
    await pollUntil(`the ${ids.length} interrupted payouts final`, open, (n) => n === 0, { timeoutMs, intervalMs: 200 });
    return Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM withdrawals.withdrawals WHERE state = 'created'`)).rows[0].n);
  } finally {
    await db.end();
  }
}

/** Signed transactions stored and never broadcast, of withdrawals not final: what a crash between the two leaves. */
const unbroadcast = async () =>
  sql<{ withdrawal_id: number; tx_hash: string }>(
    `SELECT p.withdrawal_id, p.tx_hash FROM withdrawals.payout_transactions p JOIN withdrawals.withdrawals w ON w.id = p.withdrawal_id
     WHERE p.broadcast_at IS NULL AND w.state IN ('created', 'sent')`,
  );

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
  let dict: StackDict | undefined;
  let second: RunningStack[] = [];
  const proxies: ChainProxyProcess[] = [];
  const failures: string[] = [];
  try {
    // Fresh chains of the run's own, the hot wallet funded; the apps reach them through the proxies.
    const hotWallet = ensureHotWalletKey(join(root, '.cache', 'chaos', 'hot-wallet.key'));
    const freshChains = () =>
      ensureLocalChains({ ports: chainPorts, hotWallet: hotWallet.address, blockTimeMs: TEST_BLOCK_TIME_MS, fresh: true });
    // Once more after a pause: a node of the previous run may still hold its port for a moment.
    const chains = await freshChains().catch(async (error: Error) => {
      log(`chains: ${error.message.split('\n')[0]}; trying again in 5 s`);
      await sleep(5_000);
      return freshChains();
    });
    const proxied = {} as Record<LocalNetwork, LocalChain>;
    for (const network of LOCAL_NETWORKS) {
      const proxy = await ChainProxyProcess.start({
        port: proxyPorts[network],
        target: chains[network].rpcUrl,
        slowMs: SLOW_MS,
        jitterMs: SLOW_JITTER_MS,
        cwd: root,
      });
      proxies.push(proxy);
      proxied[network] = { ...chains[network], rpcUrl: proxy.url };
    }
    Object.assign(options.env as Record<string, string>, chainAppEnv(proxied, hotWallet.keyFile, TEST_CHAIN_TIMINGS));
    log(`chains: ${LOCAL_NETWORKS.map((n) => `${n} node ${chains[n].rpcUrl}, the apps through ${proxied[n].rpcUrl}`).join('; ')}`);

    await recreateDatabase(databaseUrl);
    migrate(databaseUrl);
    if (!args['no-build']) buildWorkspace(root);
    // The apps run from a copy of the build: another build of this checkout (npm test, npm start) rewrites
    // dist/ meanwhile, and an app restarted by a fault must find the code it started with. Dependencies
    // resolve from the checkout's node_modules, up the tree.
    rmSync(appRoot, { recursive: true, force: true });
    cpSync(join(root, 'dist'), join(appRoot, 'dist'), { recursive: true });
    // pix-keys registers keys through the DICT test server (libs/dict-test-server/), in this process.
    dict = await startStackDict({ name: 'chaos', port: CHAOS_DICT_PORT, timings: TEST_DICT_TIMINGS });
    Object.assign(options.env as Record<string, string>, dict.env);
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
      await untilQuiet(240_000);
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
    /**
     * Injects a fault, undoes it with `recover`, and times from the recovery command to ready and a first
     * success (and, with `payouts`, to every payout the fault left in flight final).
     */
    const fault = async (label: string, limitMs: number, inject: () => Promise<void>, recover: () => Promise<void>, payouts = false) => {
      log(`fault: ${label}`);
      await inject();
      const started = Date.now();
      // The payouts the fault left in flight: the service (restarted, or its node back) must finish each.
      const interrupted = payouts ? await payingNow() : [];
      try {
        await recover();
      } catch (error) {
        // Slower than the restart's own deadline: a failed bound, but the run goes on to its audits.
        log(`  not recovered yet: ${(error as Error).message}; waiting longer`);
        await waitUntilReady(running, 300_000);
      }
      await load.firstSuccess(120_000);
      if (payouts) {
        try {
          const backlog = await interruptedFinal(interrupted, limitMs * 3);
          log(
            `  the ${interrupted.length} payouts in flight all final after ${((Date.now() - started) / 1000).toFixed(1)} s; ${backlog} accepted withdrawals wait to be signed`,
          );
        } catch (error) {
          // Over its bound already: the report names it SLOW.
          log(`  ${(error as Error).message}`);
        }
      }
      const recoveryMs = Date.now() - started;
      faults.push({ label, recoveryMs, limitMs });
      log(
        `  recovered in ${(recoveryMs / 1000).toFixed(1)} s; requests so far ${load.requests} (${load.achievedRate.toFixed(0)}/s), unanswered ${load.unansweredCount}`,
      );
      await settle(); // the load runs on the recovered stack before the next fault
    };

    if (runs('apps'))
      for (const app of APPS) {
        await fault(
          `kill -9 ${app}, restart`,
          APP_KILL_RECOVERY_MS,
          async () => {
            await killApp(running, app);
            await sleep(1_000);
          },
          () => restartApp(running, app, options),
        );
      }

    /** Transactions signed and committed, never broadcast, when the hook killed the service: their withdrawals must each be paid once. */
    const leftUnbroadcast: { withdrawal_id: number; tx_hash: string }[] = [];
    if (runs('chain')) {
      // kill -9 of the withdrawals service while payouts are under way, at a random point of a round
      // (signing, broadcasting, reading receipts, settling): the rounds are 100 ms apart.
      for (const round of [1, 2, 3]) {
        await fault(
          `kill -9 withdrawals while paying ${round}, restart`,
          PAYOUT_RECOVERY_MS,
          async () => {
            await pollUntil('payouts under way', inFlight, (n) => n > 0, { timeoutMs: 60_000, intervalMs: 20 });
            await sleep(Math.random() * 400);
            const paying = await inFlight();
            await killApp(running, 'withdrawals');
            log(`  killed with ${paying} withdrawals being paid`);
          },
          () => restartApp(running, 'withdrawals', options),
          true,
        );
      }
      // The test hook: the service kills itself (SIGKILL) right after committing signed transactions,
      // before broadcasting any; started again without it, it must broadcast the stored bytes, never sign again.
      for (const round of [1, 2]) {
        await fault(
          `kill -9 withdrawals between signing and broadcasting ${round} (PAYOUT_CRASH_AFTER_SIGN_RATE), restart`,
          PAYOUT_RECOVERY_MS,
          async () => {
            await killApp(running, 'withdrawals');
            const hooked = startApp('withdrawals', { ...options, env: { ...options.env, PAYOUT_CRASH_AFTER_SIGN_RATE: '0.5' } });
            running.replace('withdrawals', hooked);
            running.expectExit(hooked); // its death is the fault: restarted below, not by the supervisor
            const died = await Promise.race([
              new Promise<string>((resolve) => hooked.once('exit', (code, signal) => resolve(signal ?? `code ${code}`))),
              sleep(120_000).then(() => 'timeout' as const),
            ]);
            if (died !== 'SIGKILL') {
              failures.push(
                `the crash hook: the withdrawals service ${died === 'timeout' ? 'did not kill itself within 120 s' : `exited with ${died}`}`,
              );
              if (died === 'timeout') await killApp(running, 'withdrawals');
            }
            const left = await unbroadcast();
            for (const l of left) if (!leftUnbroadcast.some((seen) => seen.tx_hash === l.tx_hash)) leftUnbroadcast.push(l);
            log(`  it killed itself with ${left.length} signed transactions committed and not broadcast`);
            if (died === 'SIGKILL' && left.length === 0)
              failures.push('the crash hook: no signed transaction was left unbroadcast by the crash');
          },
          () => restartApp(running, 'withdrawals', options),
          true,
        );
      }
      // The nodes keep mining; what the apps reach them through fails, both networks at once.
      const outages: Array<[ProxyMode, string]> = [
        ['unreachable', 'chain nodes unreachable for 8 s (connections refused)'],
        ['frozen', 'chain nodes frozen for 8 s (requests never answered)'],
        [
          'slow',
          `chain nodes slow for 10 s (every answer ${(SLOW_MS - SLOW_JITTER_MS) / 1000}-${(SLOW_MS + SLOW_JITTER_MS) / 1000} s late; the apps give up at ${RPC_TIMEOUT_MS / 1000} s)`,
        ],
        ['garbage', 'chain nodes answering garbage for 8 s (half the answers: HTML, 502, truncated JSON, internal error)'],
      ];
      for (const [mode, label] of outages) {
        await fault(
          label,
          PAYOUT_RECOVERY_MS,
          async () => {
            const before = await Promise.all(proxies.map((p) => p.set(mode)));
            await sleep(mode === 'slow' ? 10_000 : 8_000);
            const after = await Promise.all(proxies.map((p) => p.set('pass')));
            const during = after.map((c: ProxyCounts, i) => {
              const b = before[i];
              return `${c.forwarded - b.forwarded} forwarded, ${c.held - b.held} held, ${c.delayed - b.delayed} delayed, ${c.garbled - b.garbled} garbled`;
            });
            log(`  proxies during the outage: ${LOCAL_NETWORKS.map((n, i) => `${n} ${during[i]}`).join('; ')}`);
          },
          async () => undefined,
          true,
        );
      }
    }

    if (runs('broker'))
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
    if (runs('database'))
      await fault(
        'database outage (every connection terminated for 5 s)',
        DATABASE_RECOVERY_MS,
        async () => log(`  ${await databaseOutage(databaseUrl, 5_000)} connections terminated`),
        () => waitUntilReady(running, 60_000),
      );

    // The rolling restart: one app at a time, SIGTERM, started again and ready before the next. The gateway
    // is first taken out of rotation, as a balancer does before a planned stop (docs/operations.md: a
    // connection the kernel accepts in the instant a port closes is reset, whatever the server does).
    let rolling: LoadWindow | undefined;
    if (runs('rolling')) {
      rolling = load.openWindow('rolling restart');
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
    }
    await load.stop();
    log(`load stopped: ${load.requests} requests; retrying those without a final answer`);

    const retry = await load.retryUnanswered(120_000);
    log('every request has its final answer; waiting for every resource to settle, then auditing');
    // Up to 10 minutes for every resource to be final: the payouts work off the backlog the load built at their own pace.
    const feeds = await auditFeeds({ gatewayUrl, databaseUrl, partners, ledger: load.ledger, settleTimeoutMs: 600_000 });
    const money = await auditMoney({ gatewayUrl, operatorUrl: running.adminUrl, databaseUrl, adminKey, partners, ledger: load.ledger });
    // Read off the nodes themselves, not through the proxies.
    const chain = await auditChain({
      gatewayUrl,
      operatorUrl: running.adminUrl,
      adminKey,
      databaseUrl,
      chains: Object.fromEntries(LOCAL_NETWORKS.map((n) => [n, { rpcUrl: chains[n].rpcUrl, token: chains[n].tokenAddress }])),
      ledger: load.ledger,
      settleTimeoutMs: 300_000,
    });
    // The transactions the crashes left signed and unbroadcast: each withdrawal paid with the bytes stored before the crash.
    if (leftUnbroadcast.length > 0) {
      const ids = [...new Set(leftUnbroadcast.map((l) => l.withdrawal_id))];
      const ended = await sql<{ id: number; state: string; tx_hash: string; versions: string[] }>(
        `SELECT w.id, w.state, w.tx_hash, (SELECT array_agg(p.tx_hash ORDER BY p.id) FROM withdrawals.payout_transactions p WHERE p.withdrawal_id = w.id) AS versions
         FROM withdrawals.withdrawals w WHERE w.id = ANY($1::int[])`,
        [ids],
      );
      const storedFirst = ended.filter((w) => leftUnbroadcast.some((l) => l.withdrawal_id === w.id && l.tx_hash === w.tx_hash)).length;
      log(
        `the crashes left ${leftUnbroadcast.length} transactions signed and not broadcast (${ids.length} withdrawals): ${ended.filter((w) => w.state === 'settled').length} settled, ${ended.filter((w) => w.state === 'failed').length} failed, ${storedFirst} mined with the very bytes stored before the crash, ${ended.filter((w) => w.versions.length > 1).length} replaced later (same nonce)`,
      );
      for (const w of ended)
        if (w.state !== 'settled' && w.state !== 'failed') failures.push(`withdrawal ${w.id}, signed before a crash, is still ${w.state}`);
    }
    const outcome: ChaosOutcome = { faults, load, retry, money, feeds, rolling, chain };
    console.log(`\n${chaosReport(outcome)}`);
    // What failed outside the report's invariants (the crash hook, payouts that did not catch up).
    if (failures.length > 0) console.log(`  also failed:\n${failures.map((f) => `    - ${f}`).join('\n')}`);
    failures.push(...chaosFailures(outcome));
  } catch (error) {
    failures.push(`chaos run aborted: ${(error as Error).stack ?? String(error)}`);
    console.error(failures[failures.length - 1]);
  } finally {
    await Promise.all(second.map((g) => g.stop()));
    await stack?.stop();
    await dict?.server.close();
    kafka('stop', kafkaPort);
    await Promise.all(proxies.map((p) => p.stop()));
    await stopLocalChains(chainPorts).catch(() => undefined);
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
