/**
 * `npm run bench:payouts`: USDT payouts a second of a pool of N hot wallets on a local chain (`--wallets`, each
 * size in turn), and created → sent → settled, against a floor of the same N on the same node before and after
 * the service (their mean): N bare senders, one process per key, signing the same transfers. Flags and what it
 * reads: docs/benchmarks/the-benches.md, "Payouts on a local chain".
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createPublicClient, Hex, http, parseEther, parseGwei, PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { pollUntil, VALID_ADDRESS } from '@partner/testing';
import { hotWallets } from '@partner/chaos';
import {
  DEFAULT_NATIVE_WEI,
  DEFAULT_USDT_MICROS,
  fundFromOwner,
  hotWalletAddress,
  LocalChain,
  LOCAL_NETWORKS,
  LocalNetwork,
} from '../chain/local-chains';
import { AppName, healthPortOf } from '../lib/services';
import { RunningStack, restartApp, StackOptions, stopApp } from '../stack/stack';
import { FloorSender, SenderResult } from './payouts-floor-sender';
import * as h from './harness';
import { distribution, fmt, round, sleep, table } from './harness';
import { brokerPid, cpuDelta, cpuSnapshot, perUnit, pidFile, scrapeMetrics, seriesSum } from './probes';

const bench = new h.Bench('payouts bench');
const AT = h.benchPlace('PAYOUTS_BENCH', 'payouts', { kafka: 26092, gateway: 26000, health: 26100, chain: 26545 });
const PROFILE_DIR = join(h.OUT_DIR, 'payouts-prof');
/** Every transfer, floor and service alike: 1 USDT to the same address, the service's gas limit and tip (chainAppEnv's on local chains). */
const AMOUNT_MICROS = BigInt(h.USDT);
const GAS_LIMIT = 100_000n;
const PRIORITY_FEE_WEI = parseGwei('1');

function parseOptions() {
  const o = h.cli('npm run bench:payouts -- [flags]', {
    count: h.number(1000, 1),
    /** Pool sizes measured, each against a floor of as many senders: ascending (a size's wallets are the smaller one's and more). */
    wallets: h.numbers('1,2,4', 1),
    'block-time-ms': h.number(1000, 100),
    network: h.text('MATIC', undefined, 'ETH|MATIC'),
    rate: h.number(0, 0, undefined, false),
    concurrency: h.number(16, 1),
    'poll-ms': h.number(1000, 10),
    /** Transactions unmined per wallet at most, the service's (CHAIN_MAX_IN_FLIGHT_PER_WALLET) and each floor sender's alike. */
    'in-flight': h.number(16, 1),
    batch: h.number(undefined, 1),
    confirmations: h.number(3, 1),
    'cpu-prof': h.flag(),
    'no-build': h.flag(),
    /** Another checkout whose dist/ the apps run from (its migrations applied): a commit measured apart from a working tree. */
    'app-root': h.text(undefined, 'PAYOUTS_BENCH_APP_ROOT', 'DIR'),
  });
  const network = o.network.toUpperCase() as LocalNetwork;
  if (!LOCAL_NETWORKS.includes(network)) throw new Error(`--network takes ETH or MATIC, got ${network}`);
  const wallets = [...new Set(o.wallets)].sort((a, b) => a - b);
  return { ...o, network, wallets, build: !o.noBuild && o.appRoot === undefined };
}
type Options = ReturnType<typeof parseOptions>;

/** Wall-clock ms, sub-millisecond (the service's and PostgreSQL's times are on the same clock). */
const nowMs = () => performance.timeOrigin + performance.now();

// ------------------------------------------------------------------------------------ the chain, watched
/** Every new block, seen by polling eth_blockNumber every 20 ms: floor and service are "mined" by the same clock. */
class BlockWatcher {
  readonly blocks = new Map<bigint, { number: bigint; seenAt: number; transactions: number; gasShare: number }>();
  private readonly minedIn = new Map<string, bigint>();
  private last = -1n;
  private polling?: Awaited<ReturnType<typeof h.every>>;

  constructor(private readonly client: PublicClient) {}

  async start(): Promise<void> {
    this.last = await this.client.getBlockNumber({ cacheTime: 0 });
    const failed = (error: Error) => console.error(`block watcher: ${error.message.split('\n')[0]}`);
    this.polling = await h.every(20, () => this.poll().catch(failed));
  }

  stop = () => this.polling?.stop();

  private async poll(): Promise<void> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    const seenAt = nowMs();
    for (let n = this.last + 1n; n <= head; this.last = n++) {
      const b = await this.client.getBlock({ blockNumber: n });
      this.blocks.set(n, { number: n, seenAt, transactions: b.transactions.length, gasShare: Number(b.gasUsed) / Number(b.gasLimit) });
      for (const hash of b.transactions) this.minedIn.set(hash.toLowerCase(), n);
    }
  }

  mined(hash: string) {
    const n = this.minedIn.get(hash.toLowerCase());
    return n === undefined ? undefined : this.blocks.get(n);
  }

  seenAt = (n: bigint) => this.blocks.get(n)?.seenAt;

  /** Blocks seen within [from, to]: their mean interval and how full they were. */
  between(from: number, to: number) {
    const blocks = [...this.blocks.values()].filter((b) => b.seenAt >= from && b.seenAt <= to).sort((a, b) => Number(a.number - b.number));
    const intervals = blocks.slice(1).map((b, i) => b.seenAt - blocks[i].seenAt);
    const busy = blocks.filter((b) => b.transactions > 0);
    return {
      blocks: blocks.length,
      meanIntervalMs: intervals.length ? round(intervals.reduce((a, b) => a + b, 0) / intervals.length, 1) : null,
      maxTransactionsPerBlock: Math.max(0, ...blocks.map((b) => b.transactions)),
      blocksWithTransactions: busy.length,
      meanTransactionsPerBusyBlock: busy.length ? round(busy.reduce((n, b) => n + b.transactions, 0) / busy.length, 1) : 0,
      maxGasShare: round(Math.max(0, ...blocks.map((b) => b.gasShare)), 3),
    };
  }
}

/** Mean gas used, effective gas price and cost (gwei) of transfers given as [gas used, price wei, cost wei]. */
function gasOf(paid: Array<[number, number, number]>) {
  const mean = (k: number) => (paid.length ? paid.reduce((n, x) => n + x[k], 0) / paid.length : NaN);
  const or = (n: number, digits: number) => (paid.length ? round(n, digits) : null);
  return { gasUsedMean: or(mean(0), 0), effectiveGasPriceGwei: or(mean(1) / 1e9, 4), gasCostGwei: or(mean(2) / 1e9, 1) };
}

// ------------------------------------------------------------------------------------ the floor
type Cpu = () => Promise<Map<string, number>>;

/**
 * `keys.length` bare senders, a process and a funded wallet of the bench's own each, sign `count` transfers in
 * all (shared out evenly) as the service would, each at its own consecutive nonces, each pushed once signed (or
 * on its share of the --rate schedule): what the node takes from that many wallets with nothing in between.
 */
async function runFloor(o: Options, chain: LocalChain, watcher: BlockWatcher, keys: Hex[], cpu: Cpu) {
  const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
  const shares = keys.map((_, i) => Math.floor(o.count / keys.length) + (i < o.count % keys.length ? 1 : 0));
  const senders = await Promise.all(
    keys.map((key, i) =>
      FloorSender.start(
        {
          key,
          count: shares[i],
          rate: o.rate > 0 ? o.rate / keys.length : 0,
          rpcUrl: chain.rpcUrl,
          chainId: chain.chainId,
          token: chain.tokenAddress,
          to: VALID_ADDRESS,
          amountMicros: String(AMOUNT_MICROS),
          gasLimit: String(GAS_LIMIT),
          priorityFeeWei: String(PRIORITY_FEE_WEI),
          maxInFlight: o.inFlight,
        },
        h.root,
      ),
    ),
  );
  let sent: SenderResult[];
  const cpu0 = await cpu();
  const t0 = nowMs();
  try {
    sent = await Promise.all(senders.map((x) => x.go()));
  } finally {
    for (const x of senders) x.stop();
  }
  const asked = sent.flatMap((x) => x.asked);
  const submitted = sent.flatMap((x) => x.submitted);
  const hashes = sent.flatMap((x) => x.hashes);
  const submittedAll = Math.max(...submitted);
  const deadline = Date.now() + 120_000 + o.count * 100;
  const finalOf = (hash: Hex) => {
    const b = watcher.mined(hash);
    return b ? watcher.seenAt(b.number + BigInt(o.confirmations - 1)) : undefined;
  };
  while (!bench.interrupted && hashes.some((x) => x && finalOf(x) === undefined)) {
    if (Date.now() > deadline) throw new Error('floor: transfers not mined and final within the deadline');
    await sleep(50);
  }
  const cpu1 = await cpu();
  // The senders' own CPU, as they measured it: processes of their own, not in the snapshots.
  const cpuSpent = { ...cpuDelta(cpu0, cpu1), senders: sent.reduce((n, x) => n + x.cpuMs, 0) };
  const mined = hashes.map((x) => watcher.mined(x)?.seenAt ?? NaN);
  const finals = hashes.map((x) => finalOf(x) ?? NaN);
  const [lastMined, lastFinal] = [Math.max(...mined), Math.max(...finals)];
  const receipts: Array<{ status: string; gasUsed: bigint; effectiveGasPrice: bigint }> = [];
  for (let i = 0; i < hashes.length; i += 50)
    receipts.push(...(await Promise.all(hashes.slice(i, i + 50).map((hash) => client.getTransactionReceipt({ hash })))));
  const failed = receipts.filter((r) => r.status !== 'success').length;
  if (failed > 0) throw new Error(`floor: ${failed} transfers reverted`);
  const perSecond = (until: number) => round(o.count / ((until - t0) / 1000), 1);
  return {
    count: o.count,
    senders: keys.length,
    mined: mined.filter(Number.isFinite).length,
    /** Transfers mined, final and pushed per second: count over first ask → last one. */
    minedPerSecond: perSecond(lastMined),
    finalPerSecond: perSecond(lastFinal),
    submitPerSecond: perSecond(submittedAll),
    times: {
      toSent: distribution(submitted.map((s, i) => s - asked[i])),
      toMined: distribution(mined.map((m, i) => m - asked[i])),
      toFinal: distribution(finals.map((x, i) => x - asked[i])),
      sentToMined: distribution(mined.map((m, i) => m - submitted[i])),
    },
    ...gasOf(receipts.map((r) => [Number(r.gasUsed), Number(r.effectiveGasPrice), Number(r.gasUsed * r.effectiveGasPrice)])),
    chain: watcher.between(t0, lastFinal),
    cpuMsPerTransfer: perUnit(cpuSpent, o.count),
  };
}
type FloorResult = Awaited<ReturnType<typeof runFloor>>;

// ------------------------------------------------------------------------------------ the service
type Row = { id: number; state: string; created_ms: number; signed_ms: number | null; tx_hash: Hex | null; versions: number } & Record<
  'gas_used' | 'effective_gas_price_wei' | 'gas_cost_wei',
  string | null
>;

/** A sandbox partner, 8 users, `count` withdrawals through the partner API (all at once or at --rate), waited for until every one is final. */
async function runService(o: Options, url: string, admin: string, db: Client, watcher: BlockWatcher, cpu: Cpu) {
  const partner = await h.sandboxPartner(url, admin, 'payouts bench', 8);
  const load = new h.LoadClient(url, partner.key);
  const create = (i: number, since: number) =>
    h.postWithdrawal(load, partner.users[i % partner.users.length], since, o.network, Number(AMOUNT_MICROS));
  const metricsUrl = `http://127.0.0.1:${healthPortOf('withdrawals', AT.healthPortBase)}/metrics`;
  const scrape = async () => (await scrapeMetrics(metricsUrl)) ?? '';
  const metrics0 = await scrape();
  const commits = async () =>
    Number((await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n);
  const commits0 = await commits();
  const cpu0 = await cpu();
  const t0 = nowMs();
  const timeline: Array<{ atS: number; unsigned: number; signed: number; sent: number; mined: number; settled: number }> = [];
  const roundTrips: number[] = [];
  let progress = { settled: 0, failed: 0 };
  // Not awaited: the load starts with the first sample.
  const sampler = h.every(1000, async () => {
    const { rows } = await db.query<{ unsigned: number; signed: number; sent: number; mined: number; settled: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE state = 'created' AND nonce IS NULL)::int AS unsigned,
                count(*) FILTER (WHERE state = 'created' AND nonce IS NOT NULL)::int AS signed,
                count(*) FILTER (WHERE state = 'sent' AND block_number IS NULL)::int AS sent,
                count(*) FILTER (WHERE state = 'sent' AND block_number IS NOT NULL)::int AS mined,
                count(*) FILTER (WHERE state = 'settled')::int AS settled,
                count(*) FILTER (WHERE state = 'failed')::int AS failed
         FROM withdrawals.withdrawals WHERE partner_id = $1`,
      [partner.id],
    );
    const { failed, ...stages } = rows[0];
    progress = { settled: stages.settled, failed };
    // A statement's round trip now: what each of the rounds' statements waits at least.
    for (let k = 0; k < 3; k++) {
      const q0 = performance.now();
      await db.query('SELECT 1');
      roundTrips.push(performance.now() - q0);
    }
    timeline.push({ atS: round((nowMs() - t0) / 1000, 1), ...stages });
  });
  const created =
    o.rate > 0
      ? await h.openLoop(o.rate, o.count / o.rate, create, bench.stopped)
      : await h.closedLoop(o.count, o.concurrency, create, bench.stopped);
  const ids = created.ids;
  const createdAll = nowMs();
  const deadline = Date.now() + 120_000 + o.count * 1_000;
  let last = { at: Date.now(), done: 0 };
  let timedOut = false;
  while (!bench.interrupted && progress.settled + progress.failed < ids.length) {
    const done = progress.settled + progress.failed;
    if (done > last.done) last = { at: Date.now(), done };
    if (Date.now() > deadline || Date.now() - last.at > 120_000) {
      timedOut = true;
      console.error(`service: ${ids.length - done} withdrawals not final (no progress for 120 s, or past the deadline)`);
      break;
    }
    await sleep(200);
  }
  const cpu1 = await cpu();
  const metrics1 = await scrape();
  await (await sampler).stop();
  await sleep(1_500); // PostgreSQL 15 flushes a backend's counters once it idles, at most once a second
  const commits1 = await commits();

  // Each move's time as the service recorded it (occurred_at) and when the feed had it (created_at).
  type FeedRow = { resource_id: string; state: string; occurred_ms: number; feed_ms: number };
  const feedSql = `SELECT resource_id, state, EXTRACT(EPOCH FROM occurred_at)::float8 * 1000 AS occurred_ms, EXTRACT(EPOCH FROM created_at)::float8 * 1000 AS feed_ms
    FROM events.feed_events WHERE partner_id = $1 AND type = 'usdt_withdrawal'`;
  let feed: FeedRow[] = [];
  const finalInFeed = () => feed.filter((x) => x.state === 'settled' || x.state === 'failed').length;
  for (const until = Date.now() + 30_000; ; await sleep(250)) {
    feed = (await db.query<FeedRow>(feedSql, [partner.id])).rows;
    if (finalInFeed() >= progress.settled + progress.failed || Date.now() > until) break;
  }
  const eventOf = new Map(feed.map((x) => [`${x.resource_id}:${x.state}`, x]));
  const { rows } = await db.query<Row>(
    `SELECT w.id, w.state, EXTRACT(EPOCH FROM w.created_at)::float8 * 1000 AS created_ms, w.tx_hash,
            w.gas_used::text, w.effective_gas_price_wei::text, w.gas_cost_wei::text,
            (SELECT EXTRACT(EPOCH FROM min(p.created_at))::float8 * 1000 FROM withdrawals.payout_transactions p WHERE p.withdrawal_id = w.id) AS signed_ms,
            (SELECT count(*) FROM withdrawals.payout_transactions p WHERE p.withdrawal_id = w.id)::int AS versions
     FROM withdrawals.withdrawals w WHERE w.id = ANY($1::int[])`,
    [ids],
  );
  const finalRows = rows.filter((r) => r.state === 'settled' || r.state === 'failed');
  const sentAt = (r: Row) => eventOf.get(`${r.id}:sent`)?.occurred_ms;
  const settledAt = (r: Row) => eventOf.get(`${r.id}:${r.state}`)?.occurred_ms;
  const minedAt = (r: Row) => (r.tx_hash ? watcher.mined(r.tx_hash)?.seenAt : undefined);
  const spans = (to: (r: Row) => number | null | undefined, from: (r: Row) => number | undefined = (r) => r.created_ms) => {
    const pairs = rows.map((r) => [from(r), to(r)] as const);
    return distribution(pairs.flatMap(([a, b]) => (a == null || b == null ? [] : [b - a])));
  };
  // How the pool shared them out: payouts by the wallet that signed them.
  const byWallet = await db.query<{ from_address: string | null; n: number }>(
    'SELECT from_address, count(*)::int AS n FROM withdrawals.withdrawals WHERE id = ANY($1::int[]) GROUP BY from_address ORDER BY n DESC',
    [ids],
  );
  const firstCreated = Math.min(...rows.map((r) => r.created_ms));
  const settledTimes = finalRows.map(settledAt).filter((t): t is number => t !== undefined);
  const minedTimes = rows.map(minedAt).filter((t): t is number => t !== undefined);
  const [firstSettled, lastSettled] = [Math.min(...settledTimes), Math.max(...settledTimes)];
  const paid = finalRows.filter((r) => r.gas_used !== null);
  // Series carry the app's default label too: summed over every label set that has the ones asked for.
  const delta = (name: string, ...has: string[]) => {
    const labels = `${has.map((x) => `(?=[^}]*${x})`).join('')}[^}]*`;
    return seriesSum(metrics1, name, labels) - seriesSum(metrics0, name, labels);
  };
  const ofPayouts = (name: string) => delta(name, 'job="payouts"');
  const runs = ofPayouts('periodic_job_duration_seconds_count');
  const network = `network="${o.network}"`;
  const outcomes = [...metrics1.matchAll(new RegExp(`^payout_broadcasts_total\\{(?=[^}]*${network})[^}]*outcome="([^"]*)"`, 'gm'))];
  const broadcasts = Object.fromEntries(
    [...new Set(outcomes.map((m) => m[1]))].map((x) => [x, delta('payout_broadcasts_total', network, `outcome="${x}"`)]),
  );
  const non201 = Object.fromEntries(Object.entries(created.statusCounts).filter(([k]) => k !== '201'));
  return {
    count: o.count,
    created: ids.length,
    non201: { ...non201, ...(created.non2xxSamples.length ? { samples: created.non2xxSamples.slice(0, 3) } : {}) },
    settled: rows.filter((r) => r.state === 'settled').length,
    failed: rows.filter((r) => r.state === 'failed').length,
    timedOut,
    createPerSecond: round(ids.length / ((createdAll - t0) / 1000), 1),
    /** Mined and settled per second: count over first created → last one (the floor's measure); then first → last settled. */
    minedPerSecond: round(minedTimes.length / ((Math.max(...minedTimes) - firstCreated) / 1000), 1),
    settledPerSecond: round(settledTimes.length / ((lastSettled - firstCreated) / 1000), 1),
    settledPerSecondSteady:
      settledTimes.length > 1 && lastSettled > firstSettled
        ? round((settledTimes.length - 1) / ((lastSettled - firstSettled) / 1000), 1)
        : null,
    times: {
      toSigned: spans((r) => r.signed_ms),
      toSent: spans(sentAt),
      toMined: spans(minedAt),
      toFinal: spans(settledAt),
      toSettledInFeed: spans((r) => eventOf.get(`${r.id}:${r.state}`)?.feed_ms),
      sentToMined: spans(minedAt, sentAt),
    },
    ...gasOf(paid.map((r) => [Number(r.gas_used), Number(r.effective_gas_price_wei), Number(r.gas_cost_wei)])),
    replaced: rows.filter((r) => r.versions > 1).length,
    byWallet: Object.fromEntries(byWallet.rows.map((r) => [r.from_address ?? 'unsigned', r.n])),
    chain: watcher.between(firstCreated, lastSettled),
    cpuMsPerPayout: perUnit(cpuDelta(cpu0, cpu1), finalRows.length),
    rounds: { runs, meanMs: runs > 0 ? round((ofPayouts('periodic_job_duration_seconds_sum') / runs) * 1000, 1) : null, broadcasts },
    dbRoundTripMs: distribution(roundTrips),
    commitsPerPayout: finalRows.length ? round((commits1 - commits0) / finalRows.length, 1) : null,
    timeline,
  };
}
type ServiceResult = Awaited<ReturnType<typeof runService>>;

// ------------------------------------------------------------------------------------ main
/** A fresh private key in `file` (replacing any), mode 0600, as ensureHotWalletKey writes one. */
function freshKeyFile(file: string): string {
  rmSync(file, { force: true });
  writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600 });
  return file;
}

bench.run(async () => {
  const o = parseOptions();
  const environment = h.machine();
  const timings = { confirmations: o.confirmations, pollMs: o.pollMs, replaceAfterMs: 30_000 };
  console.log(
    `payouts bench: node ${environment.node}, ${environment.cpus} cpus, load ${environment.loadavgAtStart.join(' ')}; ${o.count} transfers on ${o.network} per pool size, ` +
      `pools of ${o.wallets.join(', ')} hot wallets, block time ${o.blockTimeMs} ms, final after ${o.confirmations} blocks, CHAIN_POLL_MS ${o.pollMs}, CHAIN_BATCH ${o.batch ?? '200 (default)'}, ${o.inFlight} in flight per wallet, ` +
      `${o.rate > 0 ? `${o.rate} a second` : `all at once (${o.concurrency} clients)`}; apps from ${o.appRoot ?? h.root}`,
  );
  if (o.cpuProf) rmSync(PROFILE_DIR, { recursive: true, force: true });
  const results: Record<string, unknown> = { environment, options: o };
  const sizes: Record<number, unknown> = (results.sizes = {});
  const db = new Client({ connectionString: AT.databaseUrl, application_name: 'bench-probe' });
  try {
    const tweak = (app: AppName, x: StackOptions): StackOptions =>
      app === 'withdrawals' && o.cpuProf ? { ...x, env: { ...x.env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` } } : x;
    // The stack starts with one hot wallet (the harness's key, funded by the fresh chains): the pool of size 1.
    const { stack, chains, admin, options } = await bench.stack(AT, {
      build: o.build,
      blockTimeMs: o.blockTimeMs,
      chainTimings: timings,
      env: { CHAIN_MAX_IN_FLIGHT_PER_WALLET: String(o.inFlight), ...(o.batch === undefined ? {} : { CHAIN_BATCH: String(o.batch) }) },
      appRoot: o.appRoot,
      tweak,
    });
    const chain = chains[o.network];
    const port = AT.chainPorts[o.network];
    // The pool's other wallets: fresh keys of this run, funded as the first (the sizes add wallets, never drop one).
    const largest = o.wallets[o.wallets.length - 1];
    const poolFiles = [AT.hotWalletKey];
    for (let i = 2; i <= largest; i++) {
      const file = freshKeyFile(join(h.OUT_DIR, `payouts-hot-wallet-${i}.key`));
      await fundFromOwner(o.network, port, hotWalletAddress(file), DEFAULT_USDT_MICROS, DEFAULT_NATIVE_WEI);
      poolFiles.push(file);
    }
    await db.connect();
    bench.onStop('the database client', () => db.end());

    const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
    const watcher = new BlockWatcher(client);
    await watcher.start();
    const nodeFile = (name: string) => join(h.root, '.cache', 'chain', `node-${port}`, name);
    const chainPid = () => pidFile(nodeFile('node.pid'));
    // The node logs each JSON-RPC call it answers, a line each: the service window's lines are its calls (the docs count them).
    const nodeLogLines = () => readFileSync(nodeFile('node.log'), 'utf8').split('\n').length;
    const appPids = () => [...stack.processes].map(([app, c]) => [app, c.pid] as const);
    const pids = () => new Map<string, number | undefined>([...appPids(), ['chain node', chainPid()], ['kafka', brokerPid(AT.kafkaPort)]]);
    const cpu = () => cpuSnapshot(pids(), db);

    const summary: Array<{ wallets: number; floor: FloorResult; service: ServiceResult }> = [];
    let running = 1;
    for (const n of o.wallets) {
      if (bench.interrupted) break;
      if (n !== running) await usePool(stack, options, tweak, admin, o.network, poolFiles.slice(0, n));
      running = n;
      // The floor's wallets: N keys of this run only, each funded by the token's owner for its share, two passes.
      const floorKeys = Array.from({ length: n }, () => generatePrivateKey());
      const share = BigInt(Math.ceil(o.count / n));
      for (const key of floorKeys)
        await fundFromOwner(o.network, port, privateKeyToAccount(key).address, share * AMOUNT_MICROS * 2n, parseEther('100'));

      // Floor, service, floor: the machine's drift falls on both sides.
      const floor = async (what: string) => {
        console.log(`\n${what}`);
        const r = await runFloor(o, chain, watcher, floorKeys, cpu);
        console.log(`  ${r.minedPerSecond} transfers/s mined, ${r.submitPerSecond}/s pushed`);
        return r;
      };
      console.log(`\n=== a pool of ${n} hot wallet${n > 1 ? 's' : ''}`);
      const floorBefore = await floor(
        `floor: ${n} bare sender${n > 1 ? 's' : ''} sign and push the transfers, each from its own wallet...`,
      );
      console.log(`service: withdrawals through the partner API, paid by the payout rounds from ${n} wallet${n > 1 ? 's' : ''}...`);
      const fromLine = nodeLogLines();
      const service = await runService(o, stack.gatewayUrl, admin, db, watcher, cpu);
      const nodeLog = { file: nodeFile('node.log'), serviceLines: [fromLine, nodeLogLines()] };
      const floorAfter = await floor('floor again, after the service...');
      const floorMean = meanOf(floorBefore, floorAfter);
      sizes[n] = { floor: { before: floorBefore, after: floorAfter, mean: floorMean }, service, nodeLog };
      summary.push({ wallets: n, floor: floorMean, service });
      report(o, n, floorMean, service);
      console.log(`\nJSON-RPC calls of the service window: lines ${nodeLog.serviceLines.join('-')} of ${nodeLog.file}`);
    }
    await watcher.stop();
    reportSizes(summary);

    if (o.cpuProf) {
      await stack.stop(30_000); // the profile is written on exit (one file per pool size: the service restarts for each)
      const files = (results.profiles = existsSync(PROFILE_DIR) ? readdirSync(PROFILE_DIR).map((x) => join(PROFILE_DIR, x)) : []);
      console.log(`\nPROFILE  ${files.join(' ') || 'no .cpuprofile written (did the withdrawals service exit cleanly?)'}`);
    }
  } finally {
    h.writeResults('payouts.json', results, AT.logDir);
  }
});

/**
 * The withdrawals service restarted paying from the wallets in `files` (HOT_WALLET_KEY_FILE); resolves once the
 * operator view lists each of them active on `network` (else the sizes would not be what they say).
 */
async function usePool(
  stack: RunningStack,
  options: StackOptions,
  tweak: (app: AppName, x: StackOptions) => StackOptions,
  admin: string,
  network: LocalNetwork,
  files: string[],
): Promise<void> {
  const addresses = files.map((f) => hotWalletAddress(f).toLowerCase());
  console.log(`\nthe withdrawals service restarted with ${files.length} hot wallets: ${addresses.join(', ')}`);
  await stopApp(stack, 'withdrawals');
  await restartApp(
    stack,
    'withdrawals',
    tweak('withdrawals', { ...options, env: { ...options.env, HOT_WALLET_KEY_FILE: files.join(',') } }),
  );
  await pollUntil(
    `GET /admin/v1/hot-wallets listing the ${files.length} wallets active on ${network}`,
    async () =>
      (await hotWallets(stack.adminUrl, admin)).filter((v) => v.network === network).map((v) => `${v.address.toLowerCase()} ${v.state}`),
    (listed) => addresses.every((a) => listed.includes(`${a} active`)),
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

/** Two passes as one: every number the mean of the two (distributions field by field), anything else the first's. */
function meanOf<T>(a: T, b: T): T {
  if (typeof a === 'number' && typeof b === 'number') return round((a + b) / 2) as T;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a))
    return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, meanOf(v, (b as Record<string, unknown>)[k])])) as T;
  return a;
}

type N = number | null | undefined;
const ratio = (s: N, fl: N) => fmt(s == null || !fl ? null : round(s / fl));

function report(o: Options, wallets: number, floor: FloorResult, service: ServiceResult): void {
  const [f, t] = [floor.times, service.times];
  const row = (label: string, s: N, fl: N) => [label, fmt(s), fmt(fl), ratio(s, fl)];
  console.log(
    `\nPAYOUTS  ${o.count} on ${o.network} from ${wallets} hot wallet${wallets > 1 ? 's' : ''} (floor: ${floor.senders} sender${floor.senders > 1 ? 's' : ''}); block time ${o.blockTimeMs} ms (seen: floor ${fmt(floor.chain.meanIntervalMs)} ms, service ${fmt(service.chain.meanIntervalMs)} ms between blocks); ` +
      `final after ${o.confirmations} blocks; CHAIN_POLL_MS ${o.pollMs}, CHAIN_BATCH ${o.batch ?? 200}; ${o.rate > 0 ? `${o.rate}/s` : 'all at once'}`,
  );
  console.log(
    `  service: ${service.created} created (${service.createPerSecond}/s), ${service.settled} settled, ${service.failed} failed${service.timedOut ? ', TIMED OUT' : ''}; ` +
      `non-201 ${JSON.stringify(service.non201)}; replaced ${service.replaced}; by wallet ${JSON.stringify(service.byWallet)}; payout rounds ${service.rounds.runs} (mean ${fmt(service.rounds.meanMs)} ms), broadcasts ${JSON.stringify(service.rounds.broadcasts)}`,
  );
  const rows = [
    row('mined per second (count / first asked → last mined)', service.minedPerSecond, floor.minedPerSecond),
    row('settled per second (service) | final per second (floor)', service.settledPerSecond, floor.finalPerSecond),
    row('settled per second, first → last settled', service.settledPerSecondSteady, null),
    row('created → signed p50 ms', t.toSigned?.p50, null),
    row('created → sent p50 ms | asked → pushed (floor)', t.toSent?.p50, f.toSent?.p50),
    row('created → sent p99 ms | asked → pushed (floor)', t.toSent?.p99, f.toSent?.p99),
    row('created → mined p50 ms (block seen)', t.toMined?.p50, f.toMined?.p50),
    row('created → mined p99 ms (block seen)', t.toMined?.p99, f.toMined?.p99),
    row('created → settled p50 ms | asked → final (floor)', t.toFinal?.p50, f.toFinal?.p50),
    row('created → settled p99 ms | asked → final (floor)', t.toFinal?.p99, f.toFinal?.p99),
    row('created → settled in the feed p99 ms', t.toSettledInFeed?.p99, f.toFinal?.p99),
    row('sent → mined p50 ms | pushed → mined (floor)', t.sentToMined?.p50, f.sentToMined?.p50),
    row('gas used per payout', service.gasUsedMean, floor.gasUsedMean),
    row('effective gas price, gwei', service.effectiveGasPriceGwei, floor.effectiveGasPriceGwei),
    row('gas cost per payout, gwei', service.gasCostGwei, floor.gasCostGwei),
    row('transactions per busy block (mean)', service.chain.meanTransactionsPerBusyBlock, floor.chain.meanTransactionsPerBusyBlock),
    row('largest block, share of its gas limit', service.chain.maxGasShare, floor.chain.maxGasShare),
  ];
  console.log(table(['', 'service', `floor (${floor.senders} senders, 2 passes)`, 'service/floor'], rows));
  console.log(
    `\nPostgreSQL: commits per payout (every service, the withdrawal's creation included) ${fmt(service.commitsPerPayout)}; ` +
      `SELECT 1 round trip from the bench during the window p50 ${fmt(service.dbRoundTripMs?.p50)} ms, p99 ${fmt(service.dbRoundTripMs?.p99)} ms`,
  );
  const roundsPerPayout =
    service.rounds.meanMs !== null ? (service.rounds.meanMs * service.rounds.runs) / Math.max(1, service.settled + service.failed) : null;
  console.log(
    `payout rounds: ${service.rounds.runs}, mean ${fmt(service.rounds.meanMs)} ms each (one starts every CHAIN_POLL_MS, ${o.pollMs} ms, or at once after a longer one): ` +
      `${fmt(roundsPerPayout)} ms of rounds per payout (all rounds' time over the payouts finished)`,
  );
  const names = [...new Set([...Object.keys(service.cpuMsPerPayout), ...Object.keys(floor.cpuMsPerTransfer)])];
  console.log('\nCPU ms per payout (service window) and per transfer (floor window)');
  const cpuRows = names.map((n) => [n, fmt(service.cpuMsPerPayout[n]), fmt(floor.cpuMsPerTransfer[n])]);
  console.log(table(['process', 'service', 'floor'], cpuRows));
  const step = Math.max(1, Math.ceil(service.timeline.length / 20));
  console.log('\nTIMELINE of the service window (withdrawals in each stage)');
  const timeline = service.timeline.filter((_, i) => i % step === 0 || i === service.timeline.length - 1);
  const stageRows = timeline.map((x) => [fmt(x.atS), ...[x.unsigned, x.signed, x.sent, x.mined, x.settled].map(String)]);
  console.log(table(['s', 'unsigned', 'signed', 'sent', 'mined', 'settled'], stageRows));
}

/** Every size side by side: payouts a second and created → settled p99, each against the floor of the same size. */
function reportSizes(summary: Array<{ wallets: number; floor: FloorResult; service: ServiceResult }>): void {
  console.log('\nPAYOUTS BY POOL SIZE  (each against its own floor: as many bare senders, the mean of the passes before and after)');
  const rows = summary.map(({ wallets, floor, service }) => [
    String(wallets),
    fmt(service.settledPerSecond),
    fmt(floor.finalPerSecond),
    ratio(service.settledPerSecond, floor.finalPerSecond),
    fmt(service.times.toFinal?.p99),
    fmt(floor.times.toFinal?.p99),
    ratio(service.times.toFinal?.p99, floor.times.toFinal?.p99),
  ]);
  const head = [
    'wallets',
    'settled/s',
    'floor final/s',
    'service/floor',
    'created → settled p99 ms',
    'floor asked → final p99 ms',
    'service/floor',
  ];
  console.log(table(head, rows));
}
