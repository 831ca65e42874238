/**
 * `npm run chaos` (`-- --help` for the flags): fault injection against a real stack of its own under a
 * partner's whole day of load at a fixed rate, then the audits (money, feeds, chain, the rolling restart,
 * each recovery within its bound); exits 1 when an invariant fails. What it injects and checks:
 * docs/guarantees.md, "Faults (`npm run chaos`)".
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import {
  FAILING_ADDRESS,
  outsideTransfer,
  pollUntil,
  tokenAdmin,
  tokenBalance,
  transferLogs,
  unminedCount,
  withdrawalRequest,
  whilePayoutRoundHeld,
} from '@partner/testing';
import {
  auditBrl,
  auditChain,
  auditFeeds,
  auditMoney,
  ChaosOutcome,
  chaosFailures,
  applyRiskControls,
  CHAOS_LIMITS,
  ChaosApprover,
  chaosPartners,
  chaosReport,
  ChainProxyProcess,
  databaseOutage,
  FaultRecovery,
  GatewayPool,
  callGateway,
  CHAOS_FEES,
  CHAOS_WITHDRAWAL_SHARES,
  DEFAULT_MIX,
  freshDestination,
  hotWallets,
  HotWalletView,
  LoadWindow,
  PartnerLoad,
  ProxyCounts,
  ProxyMode,
  USDT,
} from '@partner/chaos';
import { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
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
import { AppName, APPS, CHAOS_DICT_PORT, CHAOS_PIX_API_PORT, repoRoot } from '../lib/services';
import {
  freshKafka,
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
  TEST_STACK_ENV,
  waitUntilReady,
} from '../stack/stack';
import { StackDict, startStackDict, TEST_DICT_TIMINGS } from '@partner/dict-test-server';
import { StackPixApi, startStackPixApi } from '@partner/pix-api-test-server';
import { buildWorkspace } from '../lib/build-stamp';
import { runMain } from '../lib/main';

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
 * Recovery bounds are ratios to floors measured in the same run, idle, before the load: each app's `kill -9`
 * and restart, and a graceful broker restart (a machine's pace differs from day to day; docs/guarantees.md).
 * An app fault must recover within RECOVERY_RATIO times the slowest app's floor: the gateway's own floor has
 * no consumer session to wait out, so a ratio to it would measure the load's CPU contention alone.
 */
const RECOVERY_RATIO = 3;
/** Idle tries of each broker fault; the slowest is its floor. */
const BROKER_FLOOR_TRIES = 2;
/** Payouts (a restart, then every payout it interrupted final) and chain outages: twice an app's bound. */
const PAYOUT_RATIO = 2 * RECOVERY_RATIO;
interface Floors {
  /** The slowest app's `kill -9`, restart and the stack ready again. */
  app: number;
  /** Broker stopped, started, the stack ready again. */
  broker: number;
  /** Broker killed (`kill -9`), started, the stack ready again: it first recovers its logs, which a stop closed cleanly. */
  brokerKill: number;
}
/** Each JSON-RPC call's deadline in the apps (CHAIN_RPC_TIMEOUT_MS): a frozen node costs a round this long. */
const RPC_TIMEOUT_MS = 5_000;
/** The slow nodes' delay of every answer, ± jitter: some come in time, some after the apps gave up. */
const SLOW_MS = 4_500;
const SLOW_JITTER_MS = 2_500;
/**
 * The hot wallet pool: two wallets, each funded on every network as npm start's one is, then brought to this
 * much USDT, under the API's largest withdrawal (MAX_WITHDRAWAL_MICROS) so that one withdrawal can exceed every float.
 */
const POOL_SIZE = 2;
const POOL_FLOAT_MICROS = 200_000n * BigInt(USDT);
const MAX_WITHDRAWAL_MICROS = 1_000_000n * BigInt(USDT);
/** The pool faults: on the network most of the load pays on, each wallet refused or drained this long. */
const POOL_NETWORK: LocalNetwork = 'MATIC';
const POOL_FAULT_MS = 20_000;
/** The Pix provider's fault: every call answered 503 this long, then each inflow's next devolução made with its answer lost. */
const PIX_OUTAGE_MS = 15_000;
/** After a pool fault is lifted, how long a withdrawal failing still counts as the fault's. */
const POOL_FAULT_GRACE_MS = 30_000;
const FAULT_GROUPS = ['apps', 'chain', 'pool', 'broker', 'database', 'pix', 'rolling'] as const;
type FaultGroup = (typeof FAULT_GROUPS)[number];

const USAGE = `npm run chaos [-- options]: fault injection against a stack of its own, then the audits (money, BRL, feeds, chain).

  --no-build          use the apps' current build (dist/) instead of building first
  --rate R            requests per second (default: half of the closed-loop peak measured first, at most
                      what keeps Polygon's withdrawals at a third of the payouts' pace measured then)
  --partners P        partners of the load (default 4)
  --users U           users per partner (default 3)
  --peak-seconds S    how long the peak is measured (default 6)
  --faults GROUPS     only these fault groups, comma-separated: ${FAULT_GROUPS.join(', ')} (default: all)
  --help              this text

A shorter run while developing (about 3 minutes): npm run chaos -- --no-build --rate 30 --partners 2 --faults chain,database
The hot wallet pool's faults alone (about 3 minutes): npm run chaos -- --no-build --rate 30 --partners 2 --faults pool
Ports: CHAOS_KAFKA_PORT (57092), CHAOS_DATABASE_URL (partner_chaos), CHAOS_GATEWAY_PORT (19500, and +1),
CHAOS_HEALTH_PORT_BASE (19600), CHAOS_CHAIN_PORT_ETH/_MATIC (58545/58546), CHAOS_CHAIN_PROXY_PORT_ETH/_MATIC (58555/58556),
CHAOS_DICT_PORT (58443), CHAOS_PIX_API_PORT (58480).`;

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
const groups = new Set(args.faults.split(',').map((g) => g.trim()));
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
    ...TEST_STACK_ENV,
    ADMIN_API_KEY: adminKey,
    LOG_LEVEL: 'warn',
    // The chain settings (nodes behind the proxies, token, hot wallet, timings) are added once the chains run.
    CHAIN_RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
  },
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (message: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * The closed-loop peak of this machine, as `npm run bench` measures it (withdrawals, 32 at a time, each
 * sent as soon as the previous answered), for a few seconds on a partner of its own with plenty of balance;
 * with how many withdrawals the burst created (all on Polygon) and when it began, for the payouts' pace.
 */
async function measurePeak(gateways: GatewayPool, seconds: number): Promise<{ peak: number; created: number; startedAt: number }> {
  const [probe] = await chaosPartners(gatewayUrl, adminKey, 1, 4, 1_000_000 * USDT);
  let created = 0;
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
    created += answered;
    return answered / ((Date.now() - started) / 1000);
  };
  const startedAt = Date.now();
  await closedLoop(3_000); // unmeasured: a cold stack (JIT, broker, pools) is slower at first, as the bench's warm-up knows
  const peak = await closedLoop(seconds * 1000);
  return { peak, created, startedAt };
}

/**
 * The load's share of requests that are Polygon withdrawals (the network the peak's burst is paid on):
 * withdrawals' weight in the mix times the share of them not sent on Ethereum.
 */
const MATIC_WITHDRAWAL_SHARE =
  (DEFAULT_MIX.withdrawal / Object.values(DEFAULT_MIX).reduce((sum, w) => sum + w, 0)) * (1 - CHAOS_WITHDRAWAL_SHARES.eth);
/**
 * The load's withdrawals on a network are held to this share of its payouts' pace: a backlog left by a fault
 * of T seconds is then worked off in T × in / (pace − in) = T / 2 once it is undone, so a payout fault's
 * recovery measures the fault rather than a queue the load outran.
 */
const PAYOUT_PACE_SHARE = 1 / 3;

/** A fault: what injects it, what undoes it. The floors and the faults under load share the ones below. */
type Fault = [inject: () => Promise<void>, recover: () => Promise<void>];
const appKill = (stack: RunningStack, app: AppName): Fault => [
  () => killApp(stack, app).then(() => sleep(1_000)),
  () => restartApp(stack, app, options),
];
const brokerStop = (stack: RunningStack): Fault => [
  () => kafkaInBackground('stop', kafkaPort).then(() => sleep(2_000)),
  () => restartKafka(stack, options),
];
const brokerKill = (stack: RunningStack): Fault => [
  () => killKafka(kafkaPort).then(() => sleep(2_000)),
  () => restartKafka(stack, options),
];

/** The floors the recovery bounds are ratios to: each fault's idle twin (see RECOVERY_RATIO). */
async function measureFloors(stack: RunningStack): Promise<Floors> {
  const timed = async ([inject, recover]: Fault) => {
    await inject();
    const started = Date.now();
    await recover();
    return Date.now() - started;
  };
  const app = {} as Record<AppName, number>;
  for (const name of APPS) app[name] = await timed(appKill(stack, name));
  // A broker's recovery varies more from one try to the next than an app's (its log recovery, the groups'
  // sessions): one try came out at 8.3 s where its runs took 11-13 s. The slower of two is the floor.
  const brokerTries: Record<'stop' | 'kill', number[]> = { stop: [], kill: [] };
  for (let i = 0; i < BROKER_FLOOR_TRIES; i++) {
    brokerTries.stop.push(await timed(brokerStop(stack)));
    brokerTries.kill.push(await timed(brokerKill(stack)));
  }
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const tries = (ms: number[]) => `${secs(Math.max(...ms))} (${ms.map(secs).join(', ')})`;
  log(
    `floors (idle): ${APPS.map((name) => `${name} ${secs(app[name])}`).join(', ')}; broker ${tries(brokerTries.stop)}, broker kill -9 ${tries(brokerTries.kill)}`,
  );
  return { app: Math.max(...Object.values(app)), broker: Math.max(...brokerTries.stop), brokerKill: Math.max(...brokerTries.kill) };
}

/** A query on the stack's database, on a connection of its own. */
async function sql<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  return (await db.query<T>(text, params).finally(() => db.end())).rows;
}

const OPEN = `state IN ('created', 'sent')`;
/** Withdrawals matching `where`. */
const withdrawals = async (where: string, params: unknown[] = []) =>
  Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM withdrawals.withdrawals WHERE ${where}`, params))[0].n);
/** Withdrawals being paid now: signed (a nonce) and not final. */
const inFlight = () => withdrawals(`nonce IS NOT NULL AND ${OPEN}`);
const payingNow = async () =>
  (await sql<{ id: number }>(`SELECT id FROM withdrawals.withdrawals WHERE nonce IS NOT NULL AND ${OPEN}`)).map((r) => r.id);

/** Until the peak measurement's burst is worked off (nothing being paid, no event unpublished): the faults start from a steady stack. */
async function untilQuiet(timeoutMs: number): Promise<void> {
  const busy = async () =>
    (await withdrawals(OPEN)) +
    Number((await sql<{ n: string }>('SELECT count(*) AS n FROM withdrawals.outbox_messages WHERE published_at IS NULL'))[0].n);
  await pollUntil('the peak measurement worked off', busy, (n) => n === 0, { timeoutMs, intervalMs: 250 });
}

/** Once `final` of `ids` (the payouts a fault interrupted) are final, or all of them when `final` is omitted. */
async function interruptedFinal(ids: number[], timeoutMs: number, final = ids.length): Promise<void> {
  const open = () => withdrawals(`id = ANY($1::int[]) AND ${OPEN}`, [ids]);
  const what = `${final} of the ${ids.length} interrupted payouts final`;
  await pollUntil(what, open, (n) => ids.length - n >= final, { timeoutMs, intervalMs: 200 });
}

/** Runs `work` while no payout round of `network` runs (it holds the round's lease): no signed payout is left unsent meanwhile. */
async function roundsHeld<T>(network: LocalNetwork, work: () => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await whilePayoutRoundHeld(db, network, work);
  } finally {
    await db.end();
  }
}

/** The operator view's entry of `wallet` on `network` (GET /admin/v1/hot-wallets: one per network and wallet of the pool). */
async function walletView(operatorUrl: string, network: LocalNetwork, wallet: Address): Promise<HotWalletView | undefined> {
  const views = await hotWallets(operatorUrl, adminKey);
  return views.find((v) => v.network === network && v.address.toLowerCase() === wallet.toLowerCase());
}
const viewText = (v: HotWalletView | undefined) =>
  v ? `state ${v.state}${v.reason ? ` (${v.reason})` : ''}, ${v.in_flight} in flight` : 'not listed';

/**
 * What the operator does once the nonce guard stopped `wallet` on `network` (docs/operations/payouts.md, "A
 * reconciliation finding"): waits until GET /admin/v1/hot-wallets shows it stopped, resolves the finding
 * named there through the operator API, until it signs again.
 */
async function resolveWalletStop(operatorUrl: string, network: LocalNetwork, wallet: Address): Promise<void> {
  const headers = { 'x-admin-key': adminKey };
  const walletOf = () => walletView(operatorUrl, network, wallet);
  await pollUntil(`the ${network} hot wallet ${wallet} stopped`, walletOf, (w) => w?.state === 'stopped', {
    timeoutMs: 60_000,
    intervalMs: 250,
  });
  await pollUntil(
    `the ${network} hot wallet ${wallet} signing again`,
    async () => {
      const w = await walletOf();
      if (w?.stopped_by)
        await callGateway(operatorUrl, 'POST', `/admin/v1/reconciliation/findings/${w.stopped_by}/resolve`, headers, {
          note: 'chaos: the outside transfer was the fault injected; key considered rotated',
        });
      return walletOf();
    },
    (w) => w?.state === 'active',
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

/**
 * Runs `work` (a change of the token's mind about `wallet`: a blacklist, a drain) with no payout of `wallet`
 * between signed and mined: `network`'s payout rounds held, what the node holds of it mined first. A payout
 * signed before the change and mined after it would revert: a race of the injection, not the service's doing.
 */
async function walletQuiet<T>(chain: LocalChain, network: LocalNetwork, wallet: Address, work: () => Promise<T>): Promise<T> {
  return roundsHeld(network, async () => {
    await pollUntil(
      `${wallet}'s transactions on ${network} mined`,
      () => unminedCount(chain.rpcUrl, wallet),
      (n) => n === 0,
      {
        timeoutMs: 60_000,
        intervalMs: 100,
      },
    );
    return work();
  });
}

/** Withdrawals on `network` settled since `since` by a wallet other than `notFrom` (any with undefined), `except` one left out. */
const settledSince = (network: LocalNetwork, since: Date, notFrom?: Address, except = 0) =>
  withdrawals(`network = $1 AND state = 'settled' AND updated_at >= $2 AND lower(coalesce(from_address, '')) <> $3 AND id <> $4`, [
    network,
    since,
    (notFrom ?? '').toLowerCase(),
    except,
  ]);

/** Signed transactions stored and never broadcast, of withdrawals not final: what a crash between the two leaves. */
const unbroadcast = async () =>
  sql<{ withdrawal_id: number; tx_hash: string }>(
    `SELECT p.withdrawal_id, p.tx_hash FROM withdrawals.payout_transactions p JOIN withdrawals.withdrawals w ON w.id = p.withdrawal_id
     WHERE p.broadcast_at IS NULL AND w.${OPEN}`,
  );

async function main(): Promise<number> {
  rmSync(options.logDir as string, { recursive: true, force: true });
  freshKafka(kafkaPort);
  let stack: RunningStack | undefined;
  let dict: StackDict | undefined;
  let pixApi: StackPixApi | undefined;
  let second: RunningStack[] = [];
  const proxies: ChainProxyProcess[] = [];
  const failures: string[] = [];
  try {
    // Fresh chains of the run's own, the hot wallets funded; the apps reach them through the proxies.
    const pool = Array.from({ length: POOL_SIZE }, (_, i) =>
      ensureHotWalletKey(join(root, '.cache', 'chaos', i === 0 ? 'hot-wallet.key' : `hot-wallet-${i + 1}.key`)),
    );
    const hotWallet = pool[0];
    const freshChains = () =>
      ensureLocalChains({ ports: chainPorts, hotWallets: pool.map((w) => w.address), blockTimeMs: TEST_BLOCK_TIME_MS, fresh: true });
    // Once more after a pause: a node of the previous run may still hold its port for a moment.
    const chains = await freshChains().catch(async (error: Error) => {
      log(`chains: ${error.message.split('\n')[0]}; trying again in 5 s`);
      await sleep(5_000);
      return freshChains();
    });
    // Every wallet of the pool brought to POOL_FLOAT_MICROS (no Transfer out of a wallet: a drain burns, an
    // issue comes from the owner), before any app runs.
    for (const network of LOCAL_NETWORKS) {
      const admin = tokenAdmin(chains[network].rpcUrl, chains[network].tokenAddress);
      for (const w of pool) {
        await admin.drain(w.address);
        await admin.issueTo(w.address, POOL_FLOAT_MICROS);
      }
    }
    log(`hot wallet pool: ${pool.map((w) => w.address).join(', ')}; ${POOL_FLOAT_MICROS / BigInt(USDT)} USDT each on every network`);
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
    Object.assign(
      options.env as Record<string, string>,
      chainAppEnv(
        proxied,
        pool.map((w) => w.keyFile),
        TEST_CHAIN_TIMINGS,
      ),
      // A local node keeps any number of transactions per sender (a public one a handful: the default 16). The
      // run's load, on 250 ms blocks and two shared cores, needs more per round to keep its backlog down.
      { CHAIN_MAX_IN_FLIGHT_PER_WALLET: '64' },
    );
    log(`chains: ${LOCAL_NETWORKS.map((n) => `${n} node ${chains[n].rpcUrl}, the apps through ${proxied[n].rpcUrl}`).join('; ')}`);

    await recreateDatabase(databaseUrl);
    migrate(databaseUrl);
    if (!args['no-build']) buildWorkspace(root);
    // From a copy of the build: an app restarted by a fault must find the code it started with, whatever
    // another build of the checkout does meanwhile. Dependencies resolve from the checkout's node_modules.
    rmSync(appRoot, { recursive: true, force: true });
    cpSync(join(root, 'dist'), join(appRoot, 'dist'), { recursive: true });
    // pix-keys registers keys through the DICT test server (tools/dict-test-server/), in this process.
    dict = await startStackDict({ name: 'chaos', port: CHAOS_DICT_PORT, timings: TEST_DICT_TIMINGS });
    Object.assign(options.env as Record<string, string>, dict.env);
    // inflows returns the partners' refunds through the Pix API test server, in this process (its record is audited).
    mkdirSync(options.logDir as string, { recursive: true });
    pixApi = await startStackPixApi({
      port: CHAOS_PIX_API_PORT,
      settleAfterMs: 300,
      logFile: join(options.logDir as string, 'pix-api-test-server.log'),
    });
    // A refund the provider's outage held is asked again within 30 s of its end, not up to the 5 minutes of production.
    Object.assign(options.env as Record<string, string>, pixApi.env, { PIX_API_RETRY_MAX_MS: '30000' });
    stack = await startApps(options);
    const running = stack;
    // A second gateway instance, as deployed behind a balancer: a rolling restart is invisible to the partners.
    second = await startGatewayInstances(options, [{ port: gatewayPort + 1, adminPort: healthPortBase + 51 }], {});
    const gatewayUrls = [gatewayUrl, second[0].gatewayUrl];
    const floors = await measureFloors(running);
    /** `ratio` times `floorMs`, to a tenth of a second (the report prints it). */
    const bound = (ratio: number, floorMs: number) => Math.round((ratio * floorMs) / 100) * 100;

    let rate = Number(args.rate ?? 0);
    if (!rate) {
      const { peak, created, startedAt } = await measurePeak(new GatewayPool(gatewayUrls), Number(args['peak-seconds']));
      await untilQuiet(240_000);
      // Every withdrawal of the burst final: a lower bound of the pool's pace (it includes the last one's finality).
      const pace = created / ((Date.now() - startedAt) / 1000);
      const payable = Math.floor((pace * PAYOUT_PACE_SHARE) / MATIC_WITHDRAWAL_SHARE);
      rate = Math.max(10, Math.min(Math.round(peak / 2), payable));
      log(
        `closed-loop peak ${peak.toFixed(0)} withdrawals/s; payouts' pace ${pace.toFixed(0)}/s (${created} paid from the burst on); ` +
          `the load runs at ${rate} requests/s: half the peak, at most ${payable}/s, which sends Polygon a third of that pace (--rate to choose)`,
      );
    }
    const partners = await chaosPartners(gatewayUrl, adminKey, Number(args.partners), Number(args.users));
    // The risk controls on (issue #50): limits and an approval threshold for every partner, an operator deciding.
    await applyRiskControls(running.adminUrl, adminKey, partners);
    const approver = new ChaosApprover([running.adminUrl, second[0].adminUrl], adminKey, partners);
    approver.start();
    log(
      `stack ready; ${partners.length} partners × ${args.users} users, limits and approvals on (${JSON.stringify(CHAOS_LIMITS)}); load starts at ${rate} requests/s`,
    );
    // Credits go to each instance's operator port in turn: a restarting instance is passed by.
    const load = new PartnerLoad(gatewayUrls, partners, adminKey, { rate, operatorUrls: [running.adminUrl, second[0].adminUrl] });
    load.start();
    const settle = () => load.progress(Math.max(100, rate * 3));
    await settle();

    const faults: FaultRecovery[] = [];
    /**
     * Injects a fault, undoes it with `recover`, and times from then to ready and a first success; with
     * `payouts`, to the first payout it left in flight final (paying again). How long the rest take grows
     * with how many there are (the bench measures the pace): they must all be final by a deadline, 3 × the bound.
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
      const deadlineMs = limitMs * 3;
      // Over its bound already when it throws: the report names it SLOW.
      if (payouts)
        await interruptedFinal(interrupted, deadlineMs, Math.min(1, interrupted.length)).catch((e: Error) => log(`  ${e.message}`));
      const recoveryMs = Date.now() - started;
      faults.push({ label, recoveryMs, limitMs });
      log(
        `  recovered in ${(recoveryMs / 1000).toFixed(1)} s; requests so far ${load.requests} (${load.achievedRate.toFixed(0)}/s), unanswered ${load.unansweredCount}`,
      );
      if (payouts)
        try {
          await interruptedFinal(interrupted, deadlineMs - (Date.now() - started));
          const [s, waiting] = [((Date.now() - started) / 1000).toFixed(1), await withdrawals(`state = 'created'`)];
          log(`  the ${interrupted.length} payouts in flight all final after ${s} s; ${waiting} accepted withdrawals wait to be signed`);
        } catch (error) {
          failures.push(`${label}: ${(error as Error).message}`);
        }
      await settle(); // the load runs on the recovered stack before the next fault
    };

    if (runs('apps'))
      for (const app of APPS) await fault(`kill -9 ${app}, restart`, bound(RECOVERY_RATIO, floors.app), ...appKill(running, app));

    /** Transactions signed and committed, never broadcast, when the hook killed the service: their withdrawals must each be paid once. */
    const leftUnbroadcast: { withdrawal_id: number; tx_hash: string }[] = [];
    if (runs('chain')) {
      // kill -9 of the withdrawals service while payouts are under way, at a random point of a round
      // (signing, broadcasting, reading receipts, settling): the rounds are 100 ms apart.
      for (const round of [1, 2, 3]) {
        await fault(
          `kill -9 withdrawals while paying ${round}, restart`,
          bound(PAYOUT_RATIO, floors.app),
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
          bound(PAYOUT_RATIO, floors.app),
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
          bound(PAYOUT_RATIO, floors.app),
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

    /** The outside transfers the faults sent from the hot wallets: the chain audit checks each was reported. */
    const outside: Record<LocalNetwork, string[]> = { ETH: [], MATIC: [] };
    if (runs('chain'))
      // A stolen key, during the load: a USDT transfer out of the MATIC hot wallet that no withdrawal made. Its
      // nonce moves the wallet's: the service stops signing on MATIC until the operator resolves the
      // nonce_ahead finding through the operator API; the payouts in flight then end, the backlog goes on.
      await fault(
        'an outside transfer from the MATIC hot wallet (a stolen key); the operator resolves the stop',
        bound(PAYOUT_RATIO, floors.app),
        async () => {
          const to = privateKeyToAccount(generatePrivateKey()).address;
          const hash = await roundsHeld('MATIC', () =>
            outsideTransfer(chains.MATIC.rpcUrl, chains.MATIC.tokenAddress, hotWallet.address, to, BigInt(USDT)),
          );
          outside.MATIC.push(hash);
          log(`  ${hash}: 1 USDT sent as the hot wallet to ${to}`);
        },
        () => resolveWalletStop(running.adminUrl, 'MATIC', hotWallet.address),
        true,
      );

    /** What each pool fault showed (printed after the report), and the windows no withdrawal may fail in because of it. */
    const poolLines: string[] = [];
    const poolWindows: { label: string; from: Date; to: Date }[] = [];
    if (runs('pool')) {
      const n = POOL_NETWORK;
      const chain = chains[n];
      const admin = tokenAdmin(chain.rpcUrl, chain.tokenAddress);
      const [first, second] = pool.map((w) => w.address);
      const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      /**
       * While the token refuses or starves `wallet` (for POOL_FAULT_MS from now): GET /admin/v1/hot-wallets
       * polled until it shows the wallet waiting (a failed check when it never does), and the other lanes'
       * payouts meanwhile. Answers the line the fault prints.
       */
      const whileWaiting = async (label: string, wallet: Address, expected: string) => {
        const started = Date.now();
        const since = new Date();
        const seen = await pollUntil(
          `${wallet} waiting on ${n}`,
          () => walletView(running.adminUrl, n, wallet),
          (v) => v?.state === 'waiting',
          {
            timeoutMs: POOL_FAULT_MS,
            intervalMs: 250,
          },
        ).catch(() => undefined);
        const seenAfter = Date.now() - started;
        const last = seen ?? (await walletView(running.adminUrl, n, wallet).catch(() => undefined));
        await sleep(Math.max(0, started + POOL_FAULT_MS - Date.now()));
        const others = await settledSince(n, since, wallet);
        const line = seen
          ? `${label}: ${wallet} seen waiting after ${secs(seenAfter)} (${viewText(seen)}; expected reason ${expected}); ${others} withdrawals settled by the other wallets in the ${secs(POOL_FAULT_MS)}`
          : `${label}: ${wallet} NEVER seen waiting in ${secs(POOL_FAULT_MS)} (last: ${viewText(last)}); ${others} withdrawals settled by the other wallets meanwhile`;
        log(`  ${line}`);
        poolLines.push(line);
        if (!seen) failures.push(`${label}: GET /admin/v1/hot-wallets never showed ${wallet} on ${n} waiting (last: ${viewText(last)})`);
      };
      /** Once lifted: until the view shows `wallet` active again (a failed check after 60 s). */
      const activeAgain = async (label: string, wallet: Address) => {
        await pollUntil(
          `${wallet} active again on ${n}`,
          () => walletView(running.adminUrl, n, wallet),
          (v) => v?.state === 'active',
          {
            timeoutMs: 60_000,
            intervalMs: 250,
          },
        ).catch((error: Error) => failures.push(`${label}: lifted, but ${error.message}`));
      };
      const window = (label: string, from: Date) => poolWindows.push({ label, from, to: new Date(Date.now() + POOL_FAULT_GRACE_MS) });

      // 1. The token refuses a wallet: its lane waits (nothing signed, nobody failed), the other pays.
      const refused = `token refuses hot wallet 2 on ${n}`;
      let refusedFrom = new Date();
      await fault(
        `${refused} (blacklisted ${secs(POOL_FAULT_MS)}, then lifted)`,
        bound(PAYOUT_RATIO, floors.app),
        async () => {
          refusedFrom = new Date();
          await walletQuiet(chain, n, second, () => admin.blacklist(second));
          await whileWaiting(refused, second, 'token_refuses_wallet');
        },
        async () => {
          await admin.unblacklist(second);
          await activeAgain(refused, second);
          window(refused, refusedFrom);
        },
      );

      // 2. A wallet's float drained (burned: no Transfer, so no outside transfer): it waits until its USDT is back.
      const drained = `float of hot wallet 1 drained on ${n}`;
      let drainedFrom = new Date();
      let held = 0n;
      await fault(
        `${drained} (${secs(POOL_FAULT_MS)}, then issued back)`,
        bound(PAYOUT_RATIO, floors.app),
        async () => {
          drainedFrom = new Date();
          held = await walletQuiet(chain, n, first, async () => {
            const balance = await tokenBalance(chain.rpcUrl, chain.tokenAddress, first);
            await admin.drain(first);
            return balance;
          });
          log(`  ${first}: ${held} µUSDT burned`);
          await whileWaiting(drained, first, 'usdt_short');
        },
        async () => {
          await admin.issueTo(first, held);
          await activeAgain(drained, first);
          window(drained, drainedFrom);
        },
      );

      // 3. One withdrawal larger than every wallet's float, among the load's small ones: it waits aside, they go on;
      // once a wallet is topped up it is paid, once.
      const large = `a withdrawal larger than every hot wallet's float on ${n}`;
      let big: { id: number; address: Address; micros: bigint; apiKey: string; createdAt: Date } | undefined;
      await fault(
        `${large}, then a wallet topped up`,
        bound(PAYOUT_RATIO, floors.app),
        async () => {
          const floats = await Promise.all(pool.map((w) => tokenBalance(chain.rpcUrl, chain.tokenAddress, w.address)));
          const largest = floats.reduce((a, b) => (a > b ? a : b), 0n);
          // Whole USDT above the largest float: more than any wallet holds, whatever it holds for payouts in flight.
          const micros = (largest / BigInt(USDT) + 1n) * BigInt(USDT);
          if (micros > MAX_WITHDRAWAL_MICROS) {
            failures.push(`${large}: the largest float is ${largest} µUSDT, past the API's largest withdrawal: not injected`);
            return;
          }
          // A partner of its own (not the load's: the money audit holds the load's users to the load's ledger).
          const [whale] = await chaosPartners(gatewayUrl, adminKey, 1, 1, Number(micros) + 10 * USDT);
          const address = freshDestination();
          const body = withdrawalRequest(whale.users[0].document, {
            usdtmicros: Number(micros),
            fee_choice: CHAOS_FEES[n].choice,
            network: n,
            address,
          });
          const res = await callGateway(gatewayUrl, 'POST', '/partner/v1/withdrawals/usdt', { 'x-api-key': whale.apiKey }, body);
          if (res.status !== 201) {
            failures.push(`${large}: POST answered ${res.status} ${JSON.stringify(res.body)}`);
            return;
          }
          big = { id: Number(res.body?.id), address, micros, apiKey: whale.apiKey, createdAt: new Date() };
          const b = big;
          log(`  withdrawal ${b.id}: ${micros} µUSDT to ${address}; floats ${floats.join(', ')} µUSDT`);
          // The small ones keep settling meanwhile (at least 5 within 60 s), while it stays unsigned.
          const after = await pollUntil(
            '5 withdrawals settled after the large one was created',
            () => settledSince(n, b.createdAt, undefined, b.id),
            (c) => c >= 5,
            {
              timeoutMs: 60_000,
              intervalMs: 500,
            },
          ).catch(() => settledSince(n, b.createdAt, undefined, b.id));
          const [row] = await sql<{ state: string; nonce: string | null }>(
            'SELECT state, nonce::text FROM withdrawals.withdrawals WHERE id = $1',
            [b.id],
          );
          const views = (await hotWallets(running.adminUrl, adminKey)).filter((v) => v.network === n);
          const line = `${large}: withdrawal ${b.id} of ${micros / BigInt(USDT)} USDT ${row?.state ?? 'not found'}${row?.nonce === null ? ', unsigned' : `, SIGNED (nonce ${row?.nonce})`} while ${after} others settled after it was created; wallets: ${views.map((v) => `${v.address} ${viewText(v)}`).join('; ')}`;
          log(`  ${line}`);
          poolLines.push(line);
          if (after === 0) failures.push(`${large}: no other withdrawal settled on ${n} in the 60 s after it was created`);
          if (row?.nonce !== null)
            failures.push(`${large}: withdrawal ${b.id} was signed (nonce ${row?.nonce}) though no wallet could pay it`);
        },
        async () => {
          const b = big;
          if (!b) return;
          await admin.issueTo(first, b.micros);
          const ended = await pollUntil(
            `withdrawal ${b.id} final`,
            async () => (await callGateway(gatewayUrl, 'GET', `/partner/v1/withdrawals/usdt/${b.id}`, { 'x-api-key': b.apiKey })).body,
            (w) => w?.state === 'settled' || w?.state === 'failed',
            { timeoutMs: 120_000, intervalMs: 250 },
          ).catch((error: Error): Record<string, unknown> => ({ state: `not final (${error.message})`, tx_hash: null }));
          const [state, txHash] = [String(ended?.state), String(ended?.tx_hash)];
          // Paid once: one Transfer to its address (fresh), of its amount, from a wallet of the pool.
          const paid = await transferLogs(chain.rpcUrl, chain.tokenAddress, { to: b.address });
          const once =
            paid.length === 1 && paid[0].value === b.micros && pool.some((w) => w.address.toLowerCase() === paid[0].from.toLowerCase());
          const line = `${large}: withdrawal ${b.id} ${state} after the top-up (${txHash}); ${paid.length} transfers to its address on chain${once ? `, ${b.micros} µUSDT from ${paid[0].from}: paid once` : ''}`;
          log(`  ${line}`);
          poolLines.push(line);
          if (state !== 'settled' || !once)
            failures.push(
              `${large}: withdrawal ${b.id} ended ${state}, ${paid.map((t) => `${t.value} from ${t.from} in ${t.txHash}`).join(', ') || 'no transfer'} on chain`,
            );
          window(large, b.createdAt);
        },
      );
    }

    if (runs('broker'))
      for (const round of [1, 2]) {
        await fault(`graceful broker restart ${round} (stop, start)`, bound(RECOVERY_RATIO, floors.broker), ...brokerStop(running));
        await fault(`kill -9 of the broker ${round}, start`, bound(RECOVERY_RATIO, floors.brokerKill), ...brokerKill(running));
      }
    if (runs('database'))
      await fault(
        'database outage (every connection terminated for 5 s)',
        bound(RECOVERY_RATIO, floors.app),
        async () => log(`  ${await databaseOutage(databaseUrl, 5_000)} connections terminated`),
        () => waitUntilReady(running, 60_000),
      );

    // The Pix provider down, then losing its answers: no recovery bound (the partner API does not wait for it); the
    // BRL audit holds every refund final, its money moved once and the provider's devoluções one per returned refund.
    if (runs('pix') && pixApi) {
      const provider = pixApi.server;
      log(`fault: the Pix provider answers every call 503 for ${PIX_OUTAGE_MS / 1000} s`);
      provider.unavailableNext(1_000_000);
      await sleep(PIX_OUTAGE_MS);
      provider.unavailableNext(-provider.pendingUnavailable());
      const inflows = [...load.ledger.inflows.values()].flatMap((set) => [...set]);
      for (const endToEndId of inflows) provider.loseNextAnswerOf(endToEndId);
      const [{ n }] = await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM inflows.pix_in_refunds WHERE status IN ('created', 'processing')`,
      );
      log(`  lifted: ${n} refunds not final; the next devolução of each of ${inflows.length} inflows is made with its answer lost`);
      await settle();
    }

    // The rolling restart: one app at a time, SIGTERM, started again and ready before the next; the gateway
    // taken out of rotation first, as a balancer does before a planned stop (docs/operations.md).
    let rolling: LoadWindow | undefined;
    if (runs('rolling')) {
      rolling = load.openWindow('rolling restart');
      const behindBalancer = [running.gatewayUrl, running.adminUrl];
      for (const app of APPS) {
        await fault(
          `rolling restart: SIGTERM ${app}, start`,
          bound(RECOVERY_RATIO, floors.app),
          async () => {
            if (app === 'gateway') await load.takeOutOfRotation(...behindBalancer);
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
    await approver.drain(300_000);
    log(
      `every request has its final answer; approvals decided: ${approver.tally.approved} approved, ${approver.tally.rejected} rejected; ` +
        `${load.ledger.limited} withdrawals refused by a limit; waiting for every resource to settle, then auditing`,
    );
    // Up to 10 minutes for every resource to be final: the payouts work off the backlog the load built at their own pace.
    const feeds = await auditFeeds({ gatewayUrl, databaseUrl, partners, ledger: load.ledger, settleTimeoutMs: 600_000 });
    const money = await auditMoney({ gatewayUrl, operatorUrl: running.adminUrl, databaseUrl, adminKey, partners, ledger: load.ledger });
    const provider = pixApi?.server;
    const brl = await auditBrl({
      databaseUrl,
      partners,
      ledger: load.ledger,
      devolucoesOf: provider && ((e2e) => provider.devolucoesOf(e2e)),
    });
    // Read off the nodes themselves, not through the proxies.
    const chain = await auditChain({
      gatewayUrl,
      operatorUrl: running.adminUrl,
      adminKey,
      databaseUrl,
      chains: Object.fromEntries(LOCAL_NETWORKS.map((n) => [n, { rpcUrl: chains[n].rpcUrl, token: chains[n].tokenAddress }])),
      ledger: load.ledger,
      settleTimeoutMs: 300_000,
      outsideTransfers: outside,
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
    // The pool faults caused no failure: none of the withdrawals that ended failed in a fault's window (to its
    // lift and POOL_FAULT_GRACE_MS after) but those the load sent to the destination the token refuses.
    for (const w of poolWindows) {
      const failed = await sql<{ id: number; address: string; failure_reason: string | null }>(
        `SELECT id, address, failure_reason FROM withdrawals.withdrawals
         WHERE state = 'failed' AND updated_at BETWEEN $1 AND $2 AND lower(address) <> lower($3)
           AND failure_reason IS DISTINCT FROM 'rejected_by_operator' ORDER BY id`,
        [w.from, w.to, FAILING_ADDRESS],
      );
      poolLines.push(`${w.label}: ${failed.length} withdrawals failed meanwhile other than those sent to ${FAILING_ADDRESS} on purpose`);
      if (failed.length > 0)
        failures.push(
          `${w.label}: ${failed.length} withdrawals failed: ${failed
            .slice(0, 10)
            .map((f) => `${f.id} to ${f.address} (${f.failure_reason})`)
            .join(', ')}`,
        );
    }
    // The destination the token refuses: every withdrawal to it failed before signing (destination_refused, no
    // tx_hash), but those an operator rejected first (rejected_by_operator, never tried).
    const [dead] = await sql<{ total: number; refused: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE state = 'failed' AND failure_reason = 'destination_refused' AND tx_hash IS NULL AND nonce IS NULL)::int AS refused
       FROM withdrawals.withdrawals WHERE lower(address) = lower($1) AND failure_reason IS DISTINCT FROM 'rejected_by_operator'`,
      [FAILING_ADDRESS],
    );
    poolLines.push(`${dead.refused} of the ${dead.total} withdrawals to ${FAILING_ADDRESS} failed destination_refused before signing`);
    if (dead.refused !== dead.total)
      failures.push(
        `${dead.total - dead.refused} withdrawals to ${FAILING_ADDRESS} ended other than failed destination_refused with nothing signed`,
      );
    const outcome: ChaosOutcome = { faults, load, retry, money, brl, feeds, rolling, chain };
    console.log(`\n${chaosReport(outcome)}`);
    console.log(`  hot wallet pool (${pool.length} wallets a network):\n${poolLines.map((l) => `    ${l}`).join('\n')}`);
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
    await pixApi?.server.close();
    kafka('stop', kafkaPort);
    await Promise.all(proxies.map((p) => p.stop()));
    await stopLocalChains(chainPorts).catch(() => undefined);
  }
  console.log(`(app logs: ${options.logDir})`);
  console.log(failures.length === 0 ? 'chaos: PASSED' : `chaos: FAILED (${failures.length})`);
  return failures.length === 0 ? 0 : 1;
}

runMain('chaos', main, (error) => (error instanceof Error ? (error.stack ?? error.message) : String(error)));
