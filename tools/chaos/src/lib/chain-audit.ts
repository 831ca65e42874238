import { Network, NETWORKS } from '@partner/contracts';
import type { Client } from 'pg';
import { Address, createPublicClient, getAddress, http } from 'viem';
import { TEST_USDT_ABI } from '@partner/testing';
import { onConnection } from './audit-support';
import { callGateway, LoadLedger } from './partner-load';

/**
 * The on-chain verdict of a fault-injection run (`npm run chaos`, the short chaos suite of `npm test`),
 * read off the nodes themselves (never through a proxy the run put in front of them):
 * - every withdrawal the load was answered 201/200 for reaches a final state (the partner API, polled
 *   with a deadline), as the client asked it (address, amount, network);
 * A network pays from a pool of hot wallets (every one GET /admin/v1/hot-wallets lists for it, retired ones
 * included): "the pool" below is all of them together, "a wallet" each one.
 * - a settled one: exactly one USDT `Transfer` from the pool, in the transaction its `tx_hash` names,
 *   from the wallet its books name, of exactly its amount to exactly its address, and no other transfer
 *   from the pool to that address; a failed one: none (no version of its transaction moved anything);
 * - every `Transfer` from the pool (in the window audited) belongs to a settled withdrawal of the
 *   service's books, in the transaction those books name: one that belongs to a withdrawal through
 *   another version of its transaction is a payment twice, one that belongs to none is drift;
 * - each wallet's outflow equals the settled amounts of the books it paid, and the nonce the service will
 *   sign next from it is its nonce on chain (nothing signed was left unmined, nothing mined unbooked).
 *
 * - every USDT transfer out of a wallet that a fault made on purpose (an "outside transfer": sent as the
 *   hot wallet, as a stolen key would) is no withdrawal: it is left out of the counts above, and must be
 *   reported by the service's reconciliation as an `outside_transfer` finding naming its hash.
 *
 * It prints as one line: `chain audit: N paid, 0 paid twice, 0 missing, 0 drift` (chainAuditLine), and
 * `N outside transfers reported`.
 */
export interface ChainAudit {
  /** Withdrawals of the load settled and paid exactly once as asked. */
  paid: number;
  /** Accepted withdrawals of the load that failed with nothing moved. */
  failedUnpaid: number;
  /** Withdrawals of the service outside the load (a peak measurement, other suites) found paid once the same way. */
  othersPaid: number;
  /** Transfers beyond a withdrawal's one (or any for a failed one). */
  paidTwice: number;
  /** Accepted withdrawals not final in time, or settled without their transfer as asked. */
  missing: number;
  /** Transfers no withdrawal explains, outflow ≠ settled amounts, the service's next nonce ≠ the chain's. */
  drift: number;
  /** The faults' outside transfers found on chain, and how many of them the reconciliation reported. */
  outsideTransfers: number;
  outsideReported: number;
  /** One per hot wallet of each network's pool. */
  networks: NetworkBooks[];
  failures: string[];
}

export interface NetworkBooks {
  network: Network;
  wallet: Address;
  fromBlock: bigint;
  transfers: number;
  outflowMicros: bigint;
  settledMicros: bigint;
}

/** A network's node and token, as the audit reads them (the node itself: never a fault-injecting proxy). */
export interface AuditedChain {
  rpcUrl: string;
  token: Address;
  /** The first block audited (npm test: the block the chaos suite started at; other suites paid before). Default 0. */
  fromBlock?: bigint;
}

export function chainAuditLine(a: Pick<ChainAudit, 'paid' | 'paidTwice' | 'missing' | 'drift'>): string {
  return `chain audit: ${a.paid} paid, ${a.paidTwice} paid twice, ${a.missing} missing, ${a.drift} drift`;
}

/** The latest block of each chain now: where an audit of what comes next starts. */
export async function latestBlocks(chains: Partial<Record<Network, { rpcUrl: string }>>): Promise<Partial<Record<Network, bigint>>> {
  const out: Partial<Record<Network, bigint>> = {};
  for (const [network, c] of Object.entries(chains) as [Network, { rpcUrl: string }][])
    out[network] = await nodeClient(c.rpcUrl).getBlockNumber();
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The verdict, on what was read (pure: chain-audit.spec.ts)

/** A withdrawal the load was accepted for, as the client asked it and as the partner API answers it at the end. */
export interface AskedWithdrawal {
  id: number;
  network: Network;
  address: string;
  amountMicros: bigint;
  /** The partner API's answer at the end; undefined: not found, or not final by the deadline. */
  final?: { state: string; tx_hash: string | null; address: string; usdtmicros: number; network: string };
}

/** A withdrawal of the service's books (its own table) paid from a wallet, with every signed version's hash. */
export interface BookEntry {
  id: number;
  address: string;
  amountMicros: bigint;
  state: string;
  txHash: string | null;
  blockNumber: bigint | null;
  versions: string[];
}

export interface ChainTransfer {
  to: string;
  value: bigint;
  txHash: string;
  blockNumber: bigint;
}

/** One hot wallet of a network's pool, as read. */
export interface WalletReading {
  wallet: Address;
  /** Every Transfer from the wallet since the network's fromBlock. */
  transfers: ChainTransfer[];
  /** The withdrawals its books say it paid (from_address). */
  books: BookEntry[];
  /** The nonce the service will sign next from it (GET /admin/v1/hot-wallets), and its nonce on chain. */
  nextNonce: number | undefined;
  chainNonce: number;
}

export interface NetworkReading {
  network: Network;
  fromBlock: bigint;
  /** Every wallet of the network's pool. */
  wallets: WalletReading[];
  /** The faults' outside transfers on this network (their hashes), and which of them have an outside_transfer finding. */
  outside?: { hashes: string[]; reported: string[] };
}

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();

export function judgeChain(asked: AskedWithdrawal[], readings: NetworkReading[]): ChainAudit {
  const audit: ChainAudit = {
    paid: 0,
    failedUnpaid: 0,
    othersPaid: 0,
    paidTwice: 0,
    missing: 0,
    drift: 0,
    outsideTransfers: 0,
    outsideReported: 0,
    networks: [],
    failures: [],
  };
  const fail = (line: string) => {
    if (audit.failures.length < 50) audit.failures.push(line);
  };
  const loadIds = new Set(asked.map((w) => `${w.network} ${w.id}`));

  for (const reading of readings) {
    // A fault's outside transfer is no withdrawal: out of every count below, but it must have been reported.
    const outside = new Set((reading.outside?.hashes ?? []).map(lower));
    const reported = new Set((reading.outside?.reported ?? []).map(lower));
    const everyTransfer = reading.wallets.flatMap((w) => w.transfers);
    for (const t of everyTransfer.filter((x) => outside.has(lower(x.txHash)))) {
      audit.outsideTransfers++;
      if (reported.has(lower(t.txHash))) audit.outsideReported++;
      else fail(`${reading.network}: the outside transfer ${t.txHash} (${t.value} to ${t.to}) was not reported as a finding`);
    }
    for (const hash of outside)
      if (!everyTransfer.some((t) => lower(t.txHash) === hash)) fail(`${reading.network}: the outside transfer ${hash} is not on chain`);
    // The pool as one: a withdrawal's versions, its transfer and a second payment to its address may be any wallet's.
    const wallets = reading.wallets.map((w) => ({ ...w, transfers: w.transfers.filter((t) => !outside.has(lower(t.txHash))) }));
    const payerOf = new Map<string, string>();
    for (const w of wallets) for (const t of w.transfers) payerOf.set(lower(t.txHash), lower(w.wallet));
    const r = {
      network: reading.network,
      fromBlock: reading.fromBlock,
      transfers: wallets.flatMap((w) => w.transfers),
      books: wallets.flatMap((w) => w.books.map((b) => ({ ...b, wallet: lower(w.wallet) }))),
    };
    const byHash = new Map<string, ChainTransfer[]>();
    const byAddress = new Map<string, ChainTransfer[]>();
    for (const t of r.transfers) {
      byHash.set(lower(t.txHash), [...(byHash.get(lower(t.txHash)) ?? []), t]);
      byAddress.set(lower(t.to), [...(byAddress.get(lower(t.to)) ?? []), t]);
    }
    const inWindow = (b: BookEntry) => b.blockNumber !== null && b.blockNumber >= r.fromBlock;
    const settledByHash = new Map<string, BookEntry>();
    const versionOwner = new Map<string, BookEntry>();
    for (const b of r.books) {
      if (b.state === 'settled' && b.txHash && inWindow(b)) settledByHash.set(lower(b.txHash), b);
      for (const v of b.versions) versionOwner.set(lower(v), b);
    }

    // Each settled withdrawal of the books in the window: its one transfer, as booked.
    const paidOnce = new Set<number>();
    for (const b of r.books) {
      if (b.state !== 'settled' || !inWindow(b)) continue;
      const found = byHash.get(lower(b.txHash)) ?? [];
      const exact = found.filter((t) => lower(t.to) === lower(b.address) && t.value === b.amountMicros);
      if (exact.length === 1 && found.length === 1 && payerOf.get(lower(b.txHash)) === b.wallet) {
        paidOnce.add(b.id);
        if (!loadIds.has(`${r.network} ${b.id}`)) audit.othersPaid++;
      } else if (!loadIds.has(`${r.network} ${b.id}`)) {
        audit.missing++;
        fail(
          `${r.network} withdrawal ${b.id} (outside the load): settled with ${b.txHash}, which moved ${found.map((t) => `${t.value} to ${t.to}`).join(', ') || 'nothing'} from ${payerOf.get(lower(b.txHash)) ?? 'no wallet of the pool'}; booked ${b.amountMicros} to ${b.address} from ${b.wallet}`,
        );
      }
    }

    // Every transfer from the wallet: a settled withdrawal's, in the transaction its books name.
    for (const t of r.transfers) {
      const hash = lower(t.txHash);
      if (settledByHash.has(hash)) continue;
      const owner = versionOwner.get(hash);
      if (owner) {
        audit.paidTwice++;
        fail(
          `${r.network} withdrawal ${owner.id} (${owner.state}, booked ${owner.txHash}) was also paid by ${t.txHash}: ${t.value} to ${t.to} in block ${t.blockNumber}`,
        );
      } else {
        audit.drift++;
        fail(
          `${r.network}: ${t.value} µUSDT left hot wallet ${payerOf.get(hash)} to ${t.to} in ${t.txHash} (block ${t.blockNumber}), which no withdrawal's books name`,
        );
      }
    }

    // Each wallet on its own: its outflow, what its books settled, its nonce.
    for (const w of wallets) {
      const outflow = w.transfers.reduce((sum, t) => sum + t.value, 0n);
      const settled = w.books.filter((b) => b.state === 'settled' && inWindow(b)).reduce((sum, b) => sum + b.amountMicros, 0n);
      if (outflow !== settled) {
        audit.drift++;
        fail(
          `${r.network}: hot wallet ${w.wallet}'s outflow is ${outflow} µUSDT in ${w.transfers.length} transfers, the withdrawals it settled ${settled}`,
        );
      }
      if (w.nextNonce === undefined || BigInt(w.nextNonce) !== BigInt(w.chainNonce)) {
        audit.drift++;
        fail(`${r.network}: the service's next nonce of ${w.wallet} is ${w.nextNonce ?? 'unknown'}, its nonce on chain ${w.chainNonce}`);
      }
      audit.networks.push({
        network: r.network,
        wallet: w.wallet,
        fromBlock: r.fromBlock,
        transfers: w.transfers.length,
        outflowMicros: outflow,
        settledMicros: settled,
      });
    }

    // The load's withdrawals on this network, as their clients asked them.
    for (const w of asked.filter((x) => x.network === r.network)) {
      const f = w.final;
      if (!f || (f.state !== 'settled' && f.state !== 'failed')) {
        audit.missing++;
        fail(`${r.network} withdrawal ${w.id}: ${f ? `still ${f.state}` : 'not found'} at the deadline`);
        continue;
      }
      if (lower(f.address) !== lower(w.address) || BigInt(f.usdtmicros) !== w.amountMicros || f.network !== w.network) {
        audit.missing++;
        fail(
          `${r.network} withdrawal ${w.id}: asked ${w.amountMicros} to ${w.address}, the API answers ${f.usdtmicros} to ${f.address} on ${f.network}`,
        );
        continue;
      }
      const book = r.books.find((b) => b.id === w.id);
      if (f.state === 'failed') {
        // Any transfer of one of its versions was counted above (paid twice: no settled book names it).
        const moved = r.transfers.filter(
          (t) => book?.versions.some((v) => lower(v) === lower(t.txHash)) || lower(t.txHash) === lower(f.tx_hash),
        );
        if (moved.length > 0)
          fail(`${r.network} withdrawal ${w.id} failed but was paid: ${moved.map((t) => `${t.value} in ${t.txHash}`).join(', ')}`);
        else audit.failedUnpaid++;
        continue;
      }
      const inTx = byHash.get(lower(f.tx_hash)) ?? [];
      if (inTx.length !== 1 || lower(inTx[0].to) !== lower(w.address) || inTx[0].value !== w.amountMicros) {
        audit.missing++;
        fail(
          `${r.network} withdrawal ${w.id}: settled with ${f.tx_hash}, which moved ${inTx.map((t) => `${t.value} to ${t.to}`).join(', ') || 'nothing'} from the hot wallets; asked ${w.amountMicros} to ${w.address}`,
        );
        continue;
      }
      if (!book || !paidOnce.has(w.id) || lower(book.txHash) !== lower(f.tx_hash)) {
        audit.missing++;
        fail(
          `${r.network} withdrawal ${w.id}: the API says settled with ${f.tx_hash}, the service's books say ${book ? `${book.state} with ${book.txHash}` : 'nothing'}`,
        );
        continue;
      }
      // Its address is its own (a fresh one per withdrawal): another transfer there from the wallet was
      // counted above as paid twice or drift; named here with the withdrawal it paid again.
      const again = (byAddress.get(lower(w.address)) ?? []).filter((t) => lower(t.txHash) !== lower(f.tx_hash));
      if (again.length > 0) fail(`${r.network} withdrawal ${w.id}: paid again by ${again.map((t) => t.txHash).join(', ')}`);
      else audit.paid++;
    }
  }
  // The load's withdrawals on a network no reading covers.
  const read = new Set(readings.map((r) => r.network));
  for (const w of asked.filter((x) => !read.has(x.network))) {
    audit.missing++;
    fail(`${w.network} withdrawal ${w.id}: no chain audited for its network`);
  }
  return audit;
}

// ---------------------------------------------------------------------------------------------------------
// Reading the chain, the books and the API

const nodeClient = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl, { retryCount: 2, timeout: 30_000 }) });

/** Every Transfer from `wallet` on `token` since `fromBlock`, read in block ranges. */
async function transfersFrom(rpcUrl: string, token: Address, wallet: Address, fromBlock: bigint): Promise<ChainTransfer[]> {
  const client = nodeClient(rpcUrl);
  const latest = await client.getBlockNumber();
  const out: ChainTransfer[] = [];
  const STEP = 2_000n;
  for (let start = fromBlock; start <= latest; start += STEP) {
    const end = start + STEP - 1n < latest ? start + STEP - 1n : latest;
    const logs = await client.getContractEvents({
      address: token,
      abi: TEST_USDT_ABI,
      eventName: 'Transfer',
      args: { from: wallet },
      fromBlock: start,
      toBlock: end,
      strict: true,
    });
    for (const log of logs) out.push({ to: log.args.to, value: log.args.value, txHash: log.transactionHash, blockNumber: log.blockNumber });
  }
  return out;
}

interface BookRow {
  id: number;
  address: string;
  amount_micros: string;
  state: string;
  tx_hash: string | null;
  block_number: string | null;
  versions: string[] | null;
}

async function readBooks(db: Client, network: Network, wallet: Address): Promise<BookEntry[]> {
  // from_address as the service stores it (lowercase today): compared without case, so either way matches.
  const { rows } = await db.query<BookRow>(
    `SELECT w.id, w.address, w.amount_micros::text, w.state, w.tx_hash, w.block_number::text,
            (SELECT array_agg(p.tx_hash ORDER BY p.id) FROM withdrawals.payout_transactions p WHERE p.withdrawal_id = w.id) AS versions
     FROM withdrawals.withdrawals w WHERE w.network = $1 AND lower(w.from_address) = $2`,
    [network, wallet.toLowerCase()],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    address: r.address.trim(),
    amountMicros: BigInt(r.amount_micros),
    state: r.state,
    txHash: r.tx_hash,
    blockNumber: r.block_number === null ? null : BigInt(r.block_number),
    versions: r.versions ?? [],
  }));
}

/** An entry of GET /admin/v1/hot-wallets: one per (network, wallet of the pool). */
export interface HotWalletView {
  network: Network;
  address: string;
  token_contract: string;
  pending: number;
  next_nonce: number;
  /** `active`, `waiting` (with a `reason`), `stopped` or `retired`. */
  state: string;
  reason: string | null;
  in_flight: number;
  stopped_by: number | null;
  usdt_micros: number | null;
}

/** GET /admin/v1/hot-wallets: every wallet of every network's pool. */
export async function hotWallets(operatorUrl: string, adminKey: string): Promise<HotWalletView[]> {
  const res = await callGateway(operatorUrl, 'GET', '/admin/v1/hot-wallets', { 'x-admin-key': adminKey });
  if (res.status !== 200) throw new Error(`GET /admin/v1/hot-wallets: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body?.hot_wallets ?? []) as HotWalletView[];
}

interface WithdrawalView {
  id: number;
  state: string;
  tx_hash: string | null;
  address: string;
  usdtmicros: number;
  network: string;
}

/** Every withdrawal of a partner, through the partner API's list, page after page. */
async function partnerWithdrawals(gatewayUrl: string, apiKey: string): Promise<Map<number, WithdrawalView>> {
  const out = new Map<number, WithdrawalView>();
  let cursor: string | null = null;
  for (let page = 0; page < 1_000; page++) {
    const res = await callGateway(gatewayUrl, 'GET', `/partner/v1/withdrawals/usdt?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, {
      'x-api-key': apiKey,
    });
    if (res.status !== 200) throw new Error(`withdrawals list: ${res.status} ${JSON.stringify(res.body)}`);
    for (const w of res.body?.withdrawals as WithdrawalView[]) out.set(Number(w.id), w);
    cursor = (res.body?.next_cursor as string | null) ?? null;
    if (cursor === null) break;
  }
  return out;
}

const FINAL = new Set(['settled', 'failed']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits (polling, up to `settleTimeoutMs`) until every withdrawal the load was accepted for is final in
 * the partner API and no signed withdrawal of the wallets is still open in the service's books, then
 * reads every network's transfers off its node and judges (judgeChain).
 */
export async function auditChain(options: {
  gatewayUrl: string;
  /** The operator API (the gateway's operator port): GET /admin/v1/hot-wallets. */
  operatorUrl: string;
  adminKey: string;
  databaseUrl: string;
  chains: Partial<Record<Network, AuditedChain>>;
  ledger: LoadLedger;
  settleTimeoutMs: number;
  /** The hashes of the outside transfers the faults made, by network: each must be reported as a finding. */
  outsideTransfers?: Partial<Record<Network, string[]>>;
}): Promise<ChainAudit> {
  const { gatewayUrl, operatorUrl, adminKey, databaseUrl, chains, ledger, settleTimeoutMs, outsideTransfers = {} } = options;
  const deadline = Date.now() + settleTimeoutMs;
  const accepted = [...ledger.withdrawals.values()];
  const byPartner = new Map<string, { apiKey: string; ids: number[] }>();
  for (const w of accepted) {
    const p = byPartner.get(w.partner.id) ?? { apiKey: w.partner.apiKey, ids: [] };
    p.ids.push(w.id);
    byPartner.set(w.partner.id, p);
  }
  const early: string[] = [];

  // Every accepted withdrawal final, as the partner reads it.
  let finals = new Map<number, WithdrawalView>();
  for (;;) {
    finals = new Map();
    try {
      for (const { apiKey, ids } of byPartner.values()) {
        const all = await partnerWithdrawals(gatewayUrl, apiKey);
        for (const id of ids) {
          const w = all.get(id);
          if (w) finals.set(id, w);
        }
      }
    } catch (error) {
      if (Date.now() > deadline) early.push(`the partner API's withdrawal lists: ${(error as Error).message}`);
    }
    const open = accepted.filter((w) => !FINAL.has(finals.get(w.id)?.state ?? ''));
    if (open.length === 0 || Date.now() > deadline) break;
    await sleep(1_000);
  }

  // The wallets, as the operator reads them.
  const views = await hotWallets(operatorUrl, adminKey);

  const readings: NetworkReading[] = [];
  await onConnection(databaseUrl, async (db) => {
    for (const network of NETWORKS) {
      const c = chains[network];
      if (!c) continue;
      const pool = views.filter((v) => v.network === network);
      if (pool.length === 0) {
        early.push(`${network}: GET /admin/v1/hot-wallets names no hot wallet`);
        continue;
      }
      for (const view of pool)
        if (lower(view.token_contract) !== lower(c.token))
          early.push(`${network}: hot wallet ${view.address} pays from token ${view.token_contract}, the chain's USDT is ${c.token}`);
      const addresses = pool.map((v) => lower(v.address));
      // No signed withdrawal still open (its transaction would be mined after the reading), from any wallet.
      let stillOpen = 0;
      for (;;) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM withdrawals.withdrawals WHERE network = $1 AND lower(from_address) = ANY($2::text[]) AND nonce IS NOT NULL AND state IN ('created', 'sent')`,
          [network, addresses],
        );
        stillOpen = rows[0].n;
        if (stillOpen === 0 || Date.now() > deadline) break;
        await sleep(1_000);
      }
      if (stillOpen > 0) early.push(`${network}: ${stillOpen} signed withdrawals still open after ${settleTimeoutMs} ms`);
      // Paid from a wallet the operator view does not list: its transfers would escape the audit.
      const { rows: strays } = await db.query<{ from_address: string; n: number }>(
        `SELECT from_address, count(*)::int AS n FROM withdrawals.withdrawals
         WHERE network = $1 AND from_address IS NOT NULL AND NOT (lower(from_address) = ANY($2::text[])) GROUP BY from_address`,
        [network, addresses],
      );
      for (const s of strays)
        early.push(`${network}: ${s.n} withdrawals signed by ${s.from_address}, a wallet GET /admin/v1/hot-wallets does not list`);
      const fromBlock = c.fromBlock ?? 0n;
      // The wallets' next nonces after the books are final: read again, as the operator would.
      const again = (await hotWallets(operatorUrl, adminKey).catch(() => [])).filter((v) => v.network === network);
      const wallets = await Promise.all(
        pool.map(async (view): Promise<WalletReading> => {
          const wallet = getAddress(view.address);
          const [transfers, books, chainNonce] = await Promise.all([
            transfersFrom(c.rpcUrl, c.token, wallet, fromBlock),
            readBooks(db, network, wallet),
            nodeClient(c.rpcUrl).getTransactionCount({ address: wallet, blockTag: 'latest' }),
          ]);
          const nextNonce = again.find((v) => lower(v.address) === lower(wallet))?.next_nonce;
          return { wallet, transfers, books, nextNonce, chainNonce };
        }),
      );
      const hashes = outsideTransfers[network] ?? [];
      const reported = hashes.length > 0 ? await reportedOutside(operatorUrl, adminKey, hashes, deadline) : [];
      readings.push({ network, fromBlock, wallets, outside: { hashes, reported } });
    }
  });

  const asked: AskedWithdrawal[] = accepted.map((w) => ({
    id: w.id,
    network: w.network,
    address: w.address,
    amountMicros: BigInt(w.amountMicros),
    final: finals.get(w.id),
  }));
  const audit = judgeChain(asked, readings);
  audit.failures.unshift(...early);
  return audit;
}

/**
 * Which of `hashes` the service reported as outside_transfer findings: reconciliation runs asked through the
 * operator API (POST /admin/v1/reconciliation/runs) until all are, or the deadline (they are read once final).
 */
async function reportedOutside(operatorUrl: string, adminKey: string, hashes: string[], deadline: number): Promise<string[]> {
  const headers = { 'x-admin-key': adminKey };
  for (;;) {
    await callGateway(operatorUrl, 'POST', '/admin/v1/reconciliation/runs', headers);
    const res = await callGateway(operatorUrl, 'GET', '/admin/v1/reconciliation/findings', headers);
    const subjects = ((res.body?.findings ?? []) as { kind: string; subject: string }[])
      .filter((f) => f.kind === 'outside_transfer')
      .map((f) => lower(f.subject));
    const reported = hashes.filter((h) => subjects.some((s) => s.startsWith(`transfer:${lower(h)}:`)));
    if (reported.length === hashes.length || Date.now() > deadline) return reported;
    await sleep(1_000);
  }
}

/** The audit's lines in a run's report: the one line, then what it covered. */
export function chainAuditReport(a: ChainAudit): string[] {
  const usdt = (micros: bigint) => `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}`;
  return [
    `  ${chainAuditLine(a)}`,
    `  ${a.outsideReported} outside transfers reported (of ${a.outsideTransfers} the faults made from the hot wallets)`,
    `    (${a.paid} settled withdrawals of the load paid once as asked, ${a.failedUnpaid} failed with nothing moved; ${a.othersPaid} withdrawals outside the load paid once)`,
    ...a.networks.map(
      (n) =>
        `    ${n.network}: hot wallet ${n.wallet}, from block ${n.fromBlock}: ${n.transfers} transfers out, outflow ${usdt(n.outflowMicros)} USDT, settled ${usdt(n.settledMicros)} USDT`,
    ),
  ];
}
