import { Inject, Injectable, Logger } from '@nestjs/common';
import { Transaction, UnitOfWork } from '@partner/db';
import { inParallel } from '@partner/platform';
import { getAddress } from 'viem';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { FindingRepository, findingSubject } from './finding.repository';
import { CANCEL_GAS, cancelFees, replacementFees } from './payout-fees';
import { PayoutMetrics } from './payout-metrics';
import { MAX_OPEN_PAYOUTS, NetworkSettings } from '../hot-wallets/payout-settings';
import { HOT_WALLET_POOL, HotWalletPool } from '../hot-wallets/hot-wallet-pool';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import {
  Address,
  FeeMarket,
  MinedReceipt,
  PAYOUT_RAILS,
  PayoutRail,
  PayoutRails,
  PayoutSigner,
  ReceiptInDoubt,
} from '../hot-wallets/payout-rail';
import { hashOf } from '../hot-wallets/payout-signers';
import { transferMismatch, usdtMoved } from './settlement-rule';
import { NewPayoutVersion, OpenPayout, PayoutRepository, PayoutVersion } from './payout.repository';

/** JSON-RPC calls in flight at once while a round reads receipts and asks the node what it knows. */
const RPC_CONCURRENCY = 16;
/** Signed transactions sent to a node in one JSON-RPC batch. */
const BROADCAST_BATCH = 100;
/** Payouts ended (settled or failed) per database transaction. */
const FINISH_PER_TRANSACTION = 100;

interface Mined {
  w: Withdrawal;
  r: MinedReceipt;
  /** The version mined: the transfer (a replacement maybe), or the operator's cancel. */
  kind: 'transfer' | 'cancel';
}

/** A replacement waits twice as long as the one before, up to this many times the first bound. */
const MAX_BACKOFF = 8;

/** One lane followed: its wallet on one network, and its signer (undefined: its key left the pool, nothing is re-signed). */
export interface TrackedLane {
  address: Address;
  signer: PayoutSigner | undefined;
}

/** A round's clock, and the signal that tells it to end early (the process stops). */
export interface RoundOptions {
  now?: Date;
  stopping?: AbortSignal;
}

/**
 * Follows every signed payout of one lane (a wallet on one network) to its end, as the chain tells it, in
 * three steps each round:
 * - confirm: a receipt is recorded (block, gas spent); once its block is final the withdrawal is `settled`
 *   or `failed` (below); a cancel's final receipt gives the nonce up and the withdrawal waits for a new one;
 * - replace: only the lane's lowest unmined nonce can be stuck (the others wait behind it): when it is not
 *   mined within the bound it is replaced (the same nonce, both fees raised at least 10 %, up to the cap),
 *   each next replacement after twice the wait before (up to MAX_BACKOFF times the bound); a nonce the
 *   operator cancels gets a 0-value self-transfer at that nonce instead;
 * - broadcast: a version not yet accepted by a node is broadcast (the stored bytes, always), in nonce order;
 *   accepted → `sent`; a version the node no longer knows (dropped from its mempool) is broadcast again.
 *
 * What ends a withdrawal:
 * - `settled`: status 1 and exactly one USDT Transfer of its amount from the hot wallet to its address: the hold paid
 *   out) or `failed` (status 0 and no USDT moved: `transfer_reverted`, the hold released), in one
 *   transaction with its event and ledger entries; a receipt a reorg took away first sends it back to waiting;
 * - a final receipt that is neither (status 1 with other transfers, status 0 with USDT moved), or one two
 *   nodes tell differently, ends nothing: a finding for the operator, the withdrawal and its hold stay.
 *
 * A round's cost grows with the payouts in flight, so it asks the node only what can have changed: a
 * receipt only for nonces below the wallet's mined nonce (a higher one cannot be mined yet), whether the
 * node still knows a transaction only once it has had time to be mined; the calls go RPC_CONCURRENCY at
 * a time, and the payouts that end in a round end together, in one transaction per FINISH_PER_TRANSACTION.
 */
@Injectable()
export class TrackPayoutsUseCase {
  private readonly logger = new Logger('payouts');

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly payouts: PayoutRepository,
    private readonly accounts: AccountRepository,
    private readonly findings: FindingRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(HOT_WALLET_POOL) private readonly pool: HotWalletPool,
  ) {}

  /** The lane of `address` on the network, with its signer if its key is still in the pool. */
  lane(address: string): TrackedLane {
    return { address: address as Address, signer: this.pool.signerOf(address) };
  }

  /**
   * One lane's tracking: confirm, replace, broadcast. Each step (and each batch within one) commits on its
   * own; once `stopping` is aborted, what is left waits for the next round.
   */
  async execute(s: NetworkSettings, lane: TrackedLane, { now = new Date(), stopping }: RoundOptions = {}): Promise<void> {
    const open = await this.payouts.open(s.network, lane.address, MAX_OPEN_PAYOUTS);
    if (open.length === 0) return;
    const rail = this.rails[s.network];
    const [finalBlock, minedNonce] = await Promise.all([rail.finalBlock(), rail.minedNonce(lane.address)]);
    const pending = await this.confirm(s, lane, open, finalBlock, minedNonce, now, stopping);
    if (stopping?.aborted) return;
    const toBroadcast = await this.replace(s, lane, pending, minedNonce, now);
    if (stopping?.aborted) return;
    await this.broadcast(s, toBroadcast, { now, stopping });
  }

  /**
   * The confirm step: receipts read, recorded, and the final ones acted on (settled, failed, a cancel's
   * nonce given up, or a finding). What is not mined (or mined and dropped by a reorg) is answered, by nonce.
   */
  private async confirm(
    s: NetworkSettings,
    lane: TrackedLane,
    open: OpenPayout[],
    finalBlock: bigint,
    minedNonce: bigint,
    now: Date,
    stopping?: AbortSignal,
  ): Promise<OpenPayout[]> {
    const rail = this.rails[s.network];
    const mined: Mined[] = [];
    const pending: OpenPayout[] = [];
    const doubts: { w: Withdrawal; doubt: ReceiptInDoubt }[] = [];
    await inParallel(open, RPC_CONCURRENCY, async (p) => {
      try {
        // A nonce at or above the wallet's mined nonce is in no block yet: no receipt to ask for.
        const r = nonceOf(p) < minedNonce ? await this.minedVersion(rail, p.versions) : null;
        const kind =
          r && p.versions.find((v) => v.txHash.toLowerCase() === r.txHash.toLowerCase())?.kind === 'cancel' ? 'cancel' : 'transfer';
        if (r) mined.push({ w: p.withdrawal, r, kind });
        else pending.push(p);
      } catch (error) {
        if (!(error instanceof ReceiptInDoubt)) throw error;
        doubts.push({ w: p.withdrawal, doubt: error });
      }
    });
    mined.sort((a, b) => a.w.id - b.w.id);
    pending.sort((a, b) => (nonceOf(a) < nonceOf(b) ? -1 : 1));
    for (const d of doubts) await this.inDoubt(s, d.w, d.doubt);

    // A cancel acts only once final (a reorg could still hand the nonce back to the transfer).
    await this.recordMined(
      mined.filter((m) => m.r.blockNumber > finalBlock && m.kind === 'transfer'),
      now,
    );
    const final: Mined[] = [];
    for (const m of mined.filter((x) => x.r.blockNumber <= finalBlock)) {
      if (m.kind === 'cancel') {
        await this.cancelled(s, lane, m);
        continue;
      }
      const problem = this.settlementProblem(rail, lane, m);
      if (problem) await this.finding(s, problem.kind, m.w, problem.detail);
      else final.push(m);
    }
    for (let i = 0; i < final.length && !stopping?.aborted; i += FINISH_PER_TRANSACTION)
      await this.finish(s, lane, final.slice(i, i + FINISH_PER_TRANSACTION), now);

    const left: OpenPayout[] = [];
    for (const p of pending) {
      const w = p.withdrawal;
      if (w.payout.blockNumber !== null) {
        this.metrics.reorgs.inc({ network: s.network });
        this.logger.warn(
          `withdrawal ${w.id}: its transaction's block ${w.payout.blockNumber} left the chain before it was final; waiting for it to be mined again`,
        );
        await this.payouts.clearMined(w.id);
      }
      if (nonceOf(p) < minedNonce) {
        await this.nonceTaken(s, lane, w);
        continue;
      }
      left.push(p);
    }
    return left;
  }

  /**
   * The replace step, then what to broadcast: the lowest unmined nonce alone may be re-priced (the others
   * wait behind it, whatever their age), and a nonce the operator cancels gets its cancel signed.
   */
  private async replace(
    s: NetworkSettings,
    lane: TrackedLane,
    pending: OpenPayout[],
    minedNonce: bigint,
    now: Date,
  ): Promise<{ w: Withdrawal; v: PayoutVersion }[]> {
    const rail = this.rails[s.network];
    let market: FeeMarket | undefined;
    const marketNow = async () => (market ??= await rail.feeMarket());
    const toBroadcast: { w: Withdrawal; v: PayoutVersion }[] = [];
    const toAsk: { w: Withdrawal; v: PayoutVersion }[] = [];
    for (const p of pending) {
      const w = p.withdrawal;
      const latest = p.versions[p.versions.length - 1];
      if (!latest) continue;
      if (w.payout.state === 'cancelling' && latest.kind !== 'cancel' && lane.signer) {
        toBroadcast.push({ w, v: await this.signCancel(s, lane, lane.signer, w, latest, await marketNow(), now) });
        continue;
      }
      const replacements = p.versions.length - 1;
      const bound = s.replaceAfterMs * Math.min(2 ** replacements, MAX_BACKOFF);
      // Bytes never broadcast (a crash came between signing and broadcasting) go out as they are first.
      const stuck = nonceOf(p) === minedNonce && latest.broadcastAt !== null && now.getTime() - latest.createdAt.getTime() >= bound;
      if (stuck && lane.signer) {
        // Not mined in time, or refused all along (underpriced once the base fee rose): a replacement.
        const version = await this.reprice(s, rail, lane, lane.signer, w, latest, await marketNow(), now);
        toBroadcast.push({ w, v: version });
      } else if (!latest.acceptedAt)
        // Never broadcast (a crash came between signing and broadcasting), or refused so far: these very bytes.
        toBroadcast.push({ w, v: latest });
      else if (now.getTime() - (latest.broadcastAt ?? latest.createdAt).getTime() >= knownCheckAfterMs(s)) toAsk.push({ w, v: latest });
    }
    // Whether the node still knows what it accepted a while ago and has not mined (a mempool may drop it).
    await inParallel(toAsk, RPC_CONCURRENCY, async (a) => {
      if (await rail.knows(a.v.txHash)) return;
      this.logger.warn(`withdrawal ${a.w.id}: ${a.v.txHash} is no longer known to the ${s.network} node; broadcasting it again`);
      toBroadcast.push(a);
    });
    return toBroadcast.sort((a, b) => (a.v.nonce < b.v.nonce ? -1 : 1));
  }

  /**
   * Why a final receipt ends nothing, or undefined when it settles or fails the withdrawal: status 1 must
   * hold exactly its transfer, status 0 must have moved no USDT (else a refund could pay the user twice).
   */
  private settlementProblem(rail: PayoutRail, lane: TrackedLane, { w, r }: Mined): { kind: string; detail: string } | undefined {
    if (!r.succeeded)
      return usdtMoved(r, rail.token)
        ? { kind: 'usdt_moved_at_failure', detail: `${r.txHash} reverted (status 0) yet its receipt holds USDT transfers` }
        : undefined;
    const mismatch = transferMismatch(r, { token: rail.token, from: lane.address, to: w.address, micros: w.amountMicros });
    return mismatch ? { kind: 'transfer_mismatch_at_settlement', detail: mismatch } : undefined;
  }

  /**
   * A receipt not to act on this round: a reorg under way sends a recorded block back to waiting; nodes
   * that disagree are a finding. Either way the withdrawal stays as it is, and nothing is broadcast for it.
   */
  private async inDoubt(s: NetworkSettings, w: Withdrawal, doubt: ReceiptInDoubt): Promise<void> {
    if (doubt.kind === 'disagreement') return this.finding(s, 'nodes_disagree', w, doubt.message);
    this.logger.warn(`withdrawal ${w.id} waits on ${s.network}: ${doubt.message}`);
    if (doubt.kind === 'reorg' && w.payout.blockNumber !== null) {
      this.metrics.reorgs.inc({ network: s.network });
      await this.payouts.clearMined(w.id);
    }
  }

  /** Records a finding once, counted and logged as an error: the operator decides (docs/operations/payouts.md). */
  private async finding(s: NetworkSettings, kind: string, w: Withdrawal, detail: string): Promise<void> {
    if ((await this.findings.record(s.network, kind, w.id, findingSubject.withdrawal(w.id), detail)) === null) return;
    this.metrics.mismatches.inc({ network: s.network, kind });
    this.logger.error(`withdrawal ${w.id} on ${s.network}: ${kind}: ${detail}; it waits for the operator`);
  }

  /** The receipt of whichever version was mined (newest first: a replacement is the likelier). */
  private async minedVersion(rail: PayoutRail, versions: PayoutVersion[]): Promise<MinedReceipt | null> {
    for (const v of [...versions].reverse()) {
      const r = await rail.receipt(v.txHash);
      if (r) return r;
    }
    return null;
  }

  /** Mined, not final yet: `sent` if the node's answer was lost to a crash, and where it was mined. */
  private async recordMined(mined: Mined[], now: Date): Promise<void> {
    const changed = mined.filter((m) => m.w.state === 'created' || m.w.payout.blockHash !== m.r.blockHash || m.w.txHash !== m.r.txHash);
    if (changed.length === 0) return;
    await this.unitOfWork.run(async (tx) => {
      await this.markSent(tx, changed, now);
      for (const { w, r } of changed) await this.payouts.recordMined(w.id, r, tx);
    });
  }

  /**
   * Final: settled (status 1) or failed (status 0), each with its event and ledger entries, all of `batch`
   * in one transaction. Should that transaction fail, each is tried in one of its own, so that one
   * withdrawal the database refuses does not hold the others back.
   */
  private async finish(s: NetworkSettings, lane: TrackedLane, batch: Mined[], now: Date): Promise<void> {
    try {
      await this.unitOfWork.run((tx) => this.finishIn(tx, s, lane, batch, now));
    } catch (error) {
      if (transient(error)) throw error;
      if (batch.length > 1)
        this.logger.warn(`ending ${batch.length} payouts on ${s.network} together failed (${(error as Error).message}); ending each alone`);
      for (const m of batch)
        try {
          await this.unitOfWork.run((tx) => this.finishIn(tx, s, lane, [m], now));
        } catch (alone) {
          if (transient(alone)) throw alone;
          // One row the database refuses must not hold the network back: a finding; the others go on, and
          // it is tried again each round (it ends by itself once the cause is mended).
          await this.finding(s, 'finish_refused', m.w, `the database refused to end it: ${(alone as Error).message.split('\n')[0]}`);
        }
    }
  }

  private async finishIn(tx: Transaction, s: NetworkSettings, lane: TrackedLane, batch: Mined[], now: Date): Promise<void> {
    const ended: { done: Withdrawal; failed: boolean; r: MinedReceipt }[] = [];
    await this.markSent(tx, batch, now);
    for (const { w, r } of batch) {
      await this.payouts.recordMined(w.id, r, tx);
      const done = await this.payouts.finish(tx, w.id, r.succeeded ? 'settled' : 'failed', new Date());
      if (done) ended.push({ done, failed: !r.succeeded, r });
    }
    await this.accounts.endHolds(
      tx,
      ended.map(({ done, failed }) => ({
        partnerId: done.partnerId,
        document: done.document,
        withdrawalId: done.id,
        micros: done.amountMicros + done.feeMicros,
        released: failed,
      })),
      new Date(),
    );
    for (const { done, failed, r } of ended) {
      tx.emit(stateChanged(done));
      this.metrics.finished.inc({ network: s.network, state: failed ? 'failed' : 'settled' });
      if (failed)
        this.logger.warn(`withdrawal ${done.id} failed on ${s.network}: ${r.txHash} reverted in block ${r.blockNumber}; hold released`);
    }
    await this.breaker(tx, s, lane, ended, now);
  }

  /**
   * Counts the lane's reverts in a row (in nonce order): at CHAIN_REVERTS_TO_STOP the lane stops with a
   * `reverts_in_a_row` finding (a cause of the wallet's, such as the token pausing or blacklisting it after
   * the pre-flight, would burn gas on every payout). Resolving the finding lets it sign again.
   */
  private async breaker(
    tx: Transaction,
    s: NetworkSettings,
    lane: TrackedLane,
    ended: { done: Withdrawal; failed: boolean }[],
    now: Date,
  ): Promise<void> {
    if (ended.length === 0) return;
    const inOrder = [...ended].sort((a, b) => ((a.done.payout.nonce ?? 0n) < (b.done.payout.nonce ?? 0n) ? -1 : 1));
    const count = await this.hotWallets.countReverts(
      tx,
      s.network,
      lane.address,
      inOrder.map((e) => e.failed),
    );
    if (count < this.config.CHAIN_REVERTS_TO_STOP) return;
    const wallet = await this.hotWallets.lock(tx, s.network, lane.address);
    if (wallet.stopped) return;
    const last = inOrder[inOrder.length - 1].done;
    const detail =
      `${count} transfers from ${lane.address} in a row were mined as reverts (the last: withdrawal ${last.id}, nonce ${last.payout.nonce}); ` +
      'signing from this wallet stops until this finding is resolved: check the token (paused? the wallet blacklisted?) first';
    const id = await this.findings.record(
      s.network,
      'reverts_in_a_row',
      null,
      findingSubject.nonce(lane.address, last.payout.nonce ?? 0n),
      detail,
      tx,
    );
    if (id === null) return;
    await this.hotWallets.stop(tx, s.network, lane.address, id, now);
    this.metrics.mismatches.inc({ network: s.network, kind: 'reverts_in_a_row' });
    this.logger.error(`hot wallet ${lane.address} on ${s.network} stopped (finding ${id}, reverts_in_a_row): ${detail}`);
  }

  /** The operator's cancel took the nonce, final: the withdrawal waits for a new nonce (its transfer can never be mined now). */
  private async cancelled(s: NetworkSettings, lane: TrackedLane, m: Mined): Promise<void> {
    const released = await this.unitOfWork.run((tx) => this.payouts.releaseNonce(tx, m.w.id));
    if (!released) return;
    this.metrics.cancels.inc({ network: s.network, outcome: 'cancelled' });
    this.logger.log(
      `withdrawal ${m.w.id}: its nonce ${m.w.payout.nonce} of ${lane.address} on ${s.network} was taken by its cancel ${m.r.txHash} (final); it waits for a new nonce`,
    );
  }

  /** Signs and stores the cancel of `w`'s nonce: a 0-value transfer of the wallet to itself, fees above its latest version. */
  private async signCancel(
    s: NetworkSettings,
    lane: TrackedLane,
    signer: PayoutSigner,
    w: Withdrawal,
    latest: PayoutVersion,
    market: FeeMarket,
    now: Date,
  ): Promise<PayoutVersion> {
    const fees = cancelFees({ maxFeePerGas: latest.maxFeePerGasWei, maxPriorityFeePerGas: latest.maxPriorityFeeWei }, market);
    const rawTx = await signer.sign({ chainId: s.chainId, nonce: latest.nonce, to: lane.address, data: '0x', gas: CANCEL_GAS, ...fees });
    const version = await this.store(s, lane, w, {
      nonce: latest.nonce,
      txHash: hashOf(rawTx),
      rawTx,
      maxFeePerGasWei: fees.maxFeePerGas,
      maxPriorityFeeWei: fees.maxPriorityFeePerGas,
      createdAt: now,
      kind: 'cancel',
    });
    this.metrics.cancels.inc({ network: s.network, outcome: 'signed' });
    this.logger.warn(
      `withdrawal ${w.id}: its nonce ${latest.nonce} of ${lane.address} is cancelled by ${version.txHash} (the operator's decision)`,
    );
    return version;
  }

  private async store(s: NetworkSettings, lane: TrackedLane, w: Withdrawal, version: NewPayoutVersion): Promise<PayoutVersion> {
    const [stored] = await this.unitOfWork.run((tx) =>
      this.payouts.addVersions(tx, s.network, lane.address, [{ withdrawalId: w.id, version }]),
    );
    return stored;
  }

  /**
   * The wallet's nonce was used and none of our versions holds it: another transaction took it. Never
   * signed again here (that could pay twice): the operator decides, and resolving the finding fails the
   * withdrawal and releases its hold (docs/operations/payouts.md, "A reconciliation finding").
   */
  private async nonceTaken(s: NetworkSettings, lane: TrackedLane, w: Withdrawal): Promise<void> {
    await this.finding(
      s,
      'nonce_taken',
      w,
      `nonce ${w.payout.nonce} of ${lane.address} was mined by a transaction that is not this withdrawal's`,
    );
  }

  /**
   * Broadcasts the stored bytes of each version in nonce order, BROADCAST_BATCH to a JSON-RPC batch (one
   * round trip each, the batches one after another), then records what the nodes said in one transaction:
   * accepted (or already known) → `sent`.
   */
  async broadcast(
    s: NetworkSettings,
    items: { w: Withdrawal; v: PayoutVersion }[],
    { now = new Date(), stopping }: RoundOptions = {},
  ): Promise<void> {
    if (items.length === 0) return;
    const rail = this.rails[s.network];
    const said: { w: Withdrawal; v: PayoutVersion; accepted: boolean }[] = [];
    try {
      for (let i = 0; i < items.length && !stopping?.aborted; i += BROADCAST_BATCH) {
        const chunk = items.slice(i, i + BROADCAST_BATCH);
        const outcomes = await rail.broadcast(chunk.map(({ v }) => v.rawTx));
        chunk.forEach(({ w, v }, j) => {
          const outcome = outcomes[j];
          this.metrics.broadcasts.inc({ network: s.network, outcome: outcome.accepted ? 'accepted' : outcome.kind });
          const accepted = outcome.accepted || outcome.kind === 'known';
          said.push({ w, v, accepted });
          if (!outcome.accepted && !accepted)
            // nonce_used: a version of ours was mined (its receipt ends it next round) or the nonce was taken;
            // underpriced: the base fee rose above its max fee (replaced after the bound); refused: logged, tried again.
            this.logger.warn(`withdrawal ${w.id}: the ${s.network} node refused ${v.txHash} (${outcome.kind}): ${outcome.reason}`);
        });
      }
    } finally {
      // What the node said before it stopped answering is kept; the rest is broadcast again next round.
      if (said.length > 0)
        await this.unitOfWork.run(async (tx) => {
          await this.payouts.markBroadcast(
            tx,
            said.map(({ v, accepted }) => ({ versionId: v.id, accepted })),
            now,
          );
          // A cancel accepted moves nothing of the withdrawal: only its transfer is what the partner is told of.
          const sent = await this.payouts.markSent(
            tx,
            said.filter((x) => x.accepted && x.v.kind === 'transfer').map(({ w, v }) => ({ withdrawalId: w.id, txHash: v.txHash })),
            now,
          );
          for (const w of sent) tx.emit(stateChanged(w));
        });
    }
  }

  /**
   * Signs and stores a replacement of `previous` (same nonce, higher fees); at the cap, `previous` goes out
   * again. A cancel is replaced by a cancel.
   */
  private async reprice(
    s: NetworkSettings,
    rail: PayoutRail,
    lane: TrackedLane,
    signer: PayoutSigner,
    w: Withdrawal,
    previous: PayoutVersion,
    market: FeeMarket,
    now: Date,
  ): Promise<PayoutVersion> {
    if (previous.kind === 'cancel') return this.signCancel(s, lane, signer, w, previous, market, now);
    const fees = replacementFees(
      { maxFeePerGas: previous.maxFeePerGasWei, maxPriorityFeePerGas: previous.maxPriorityFeeWei },
      market,
      w.feeChoice,
      s.maxFeeWei,
    );
    if (!fees) {
      this.logger.warn(
        `withdrawal ${w.id}: not mined after ${s.replaceAfterMs} ms and its fees are at the cap on ${s.network}; broadcasting it again`,
      );
      return previous;
    }
    const rawTx = await signer.sign({
      chainId: s.chainId,
      nonce: previous.nonce,
      to: rail.token,
      data: rail.transferData(getAddress(w.address.toLowerCase()), w.amountMicros),
      gas: BigInt(this.config.CHAIN_GAS_LIMIT),
      ...fees,
    });
    const txHash = hashOf(rawTx);
    const version = await this.store(s, lane, w, {
      nonce: previous.nonce,
      txHash,
      rawTx,
      maxFeePerGasWei: fees.maxFeePerGas,
      maxPriorityFeeWei: fees.maxPriorityFeePerGas,
      createdAt: now,
      kind: 'transfer',
    });
    this.metrics.replacements.inc({ network: s.network });
    this.logger.log(
      `withdrawal ${w.id}: ${previous.txHash} (the lowest nonce of ${lane.address}) not mined in time; replaced by ${txHash} (max fee ${fees.maxFeePerGas} wei)`,
    );
    return version;
  }

  /** Those still `created` were mined before the node's answer was recorded (a crash took it): `sent` first, each with its event. */
  private async markSent(tx: Transaction, mined: Mined[], now: Date): Promise<void> {
    const created = mined.filter(({ w }) => w.state === 'created');
    const sent = await this.payouts.markSent(
      tx,
      created.map(({ w, r }) => ({ withdrawalId: w.id, txHash: r.txHash })),
      now,
    );
    for (const w of sent) tx.emit(stateChanged(w));
  }
}

/**
 * Whether an error is the database or the network failing for now (a connection lost, a deadlock, a
 * timeout: the round is tried again) rather than refusing this very row (a constraint, a hold not found).
 */
function transient(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^(08|40|53|57|58)/.test(code) || /^E[A-Z]+$/.test(code))) return true;
  return /connection|timeout|terminated/i.test((error as Error).message ?? '');
}

/** Every open payout holds a nonce (PayoutRepository.open). */
const nonceOf = (p: OpenPayout): bigint => p.withdrawal.payout.nonce ?? -1n;

/**
 * How long an accepted transaction may go unmined before the round asks the node whether it still knows
 * it: half the replacement bound, at most 10 s (most are mined in a block or two and never asked).
 */
const knownCheckAfterMs = (s: NetworkSettings): number => Math.min(s.replaceAfterMs / 2, 10_000);
