import { Inject, Injectable, Logger } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { inParallel } from '@partner/platform';
import { getAddress } from 'viem';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWallet, HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { ADDRESS_SCREENING, AddressScreening, ScreeningHit } from '../screening/address-screening';
import { FailBeforeSigning } from './fail-before-signing';
import { HOT_WALLET_POOL, HotWalletPool, PoolWallet } from '../hot-wallets/hot-wallet-pool';
import { Fees, feesFor } from './payout-fees';
import { PayoutMetrics } from './payout-metrics';
import { NetworkSettings } from '../hot-wallets/payout-settings';
import { Address, FeeMarket, PAYOUT_RAILS, PayoutRail, PayoutRails } from '../hot-wallets/payout-rail';
import { hashOf } from '../hot-wallets/payout-signers';
import { NewPayoutVersion, Outstanding, PayoutRepository, PayoutVersion } from './payout.repository';

/**
 * Why a lane of the pool signs nothing now: `stopped` (a finding: nonce_ahead, reverts_in_a_row),
 * `token_refuses_wallet` (the token refuses any transfer from it: paused, or the wallet blacklisted),
 * `gas_short` (not enough native coin for one more transfer), `usdt_short` (no USDT left beyond what is in
 * flight), `in_flight_cap` (full: CHAIN_MAX_IN_FLIGHT_PER_WALLET transactions not yet mined; busy rather than
 * held back, so only the metric counts it).
 */
export type LaneWait = 'stopped' | 'token_refuses_wallet' | 'gas_short' | 'usdt_short' | 'in_flight_cap';
/** Why a withdrawal waits aside: larger than every lane's float, or its fee choice above the cap now. */
export type AsideReason = 'exceeds_float' | 'fee_cap';

/** What a signing round did: the versions it stored (to broadcast), why each lane waits, whether more can be signed now. */
export interface SigningRound {
  signed: { withdrawal: Withdrawal; version: PayoutVersion }[];
  lanes: { address: Address; wait: LaneWait | null }[];
  more?: boolean;
}

/** How often the lanes are read off the chain while there is nothing they could sign (their states kept fresh). */
const LANE_RECHECK_MS = 10_000;

/** A lane as this round sees it. */
interface Lane {
  wallet: PoolWallet;
  row: HotWallet;
  /** USDT it can still pay: its balance less what it signed and is not mined yet. */
  float: bigint;
  /** Native coin left for gas after what is in flight may cost. */
  native: bigint;
  inFlight: number;
  nonce: bigint;
  wait: LaneWait | null;
  batch: { withdrawal: Withdrawal; version: NewPayoutVersion }[];
}

/**
 * Signs the next withdrawals of one network over the pool's lanes (one per wallet, each its own nonces):
 * each withdrawal, in the order they were asked, goes to the least loaded lane whose float and gas cover it
 * and that has room under CHAIN_MAX_IN_FLIGHT_PER_WALLET. Its signed transaction and hash are stored in the
 * same database transaction as the nonce, before anything is broadcast (so a crash at any point re-broadcasts
 * these bytes and never signs a second payment). The lanes' rows stay locked meanwhile.
 *
 * Nothing is signed that the chain would refuse: each lane is probed first (a 0-value transfer to itself,
 * eth_call on the pending state): a token that refuses the wallet makes the lane wait, no withdrawal failed,
 * no gas burnt; then each transfer is simulated from its lane, and one the token refuses while the lane's
 * probe passes is the destination's: that withdrawal fails (`destination_refused`), never signed.
 * A withdrawal larger than every lane's float, or whose fee choice is above the cap now, waits aside; the
 * ones after it go on.
 *
 * Before any of that, the round's withdrawals are screened again (ADDRESS_SCREENING, moment `signing`: the lists
 * as they are now, the token's blacklist asked of the node): one whose destination became listed since it
 * was asked for fails (`address_blocked`), never signed. A screening that cannot answer stops the round.
 */
@Injectable()
export class SignPayoutsUseCase {
  private readonly logger = new Logger('payouts');
  private readonly low = new Map<string, number>();
  /** When each network's lanes were last read off the chain, and what they were. */
  private readonly looked = new Map<Network, { at: number; lanes: SigningRound['lanes'] }>();

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly payouts: PayoutRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly failBeforeSigning: FailBeforeSigning,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(HOT_WALLET_POOL) private readonly pool: HotWalletPool,
    @Inject(ADDRESS_SCREENING) private readonly screening: AddressScreening,
  ) {}

  async execute(s: NetworkSettings, now = new Date()): Promise<SigningRound> {
    const rail = this.rails[s.network];
    const wallets = this.pool.signing;
    if (wallets.length === 0) return { signed: [], lanes: [] };
    // Nothing to sign, or no lane with room: the chain is not asked (a probe and balances per lane each round
    // would cost the node for nothing), but the lanes are looked at again every LANE_RECHECK_MS all the same.
    const last = this.looked.get(s.network);
    if (
      last &&
      now.getTime() - last.at < LANE_RECHECK_MS &&
      !(await this.payouts.workFor(s.network, this.config.CHAIN_MAX_IN_FLIGHT_PER_WALLET))
    )
      return { signed: [], lanes: last.lanes };
    const market = await rail.feeMarket();
    // Chain reads first, outside the database transaction: balances, and whether the token lets the wallet transfer at all.
    const seen = await Promise.all(
      wallets.map(async (w) => {
        const [balances, refusal] = await Promise.all([rail.balances(w.address), rail.simulateTransfer(w.address, w.address, 0n)]);
        this.watchBalances(s, w.address, balances);
        return { w, balances, refusal };
      }),
    );
    const gasLimit = BigInt(this.config.CHAIN_GAS_LIMIT);
    const cap = this.config.CHAIN_MAX_IN_FLIGHT_PER_WALLET;
    const round = await this.unitOfWork.run(async (tx) => {
      const rows = await this.hotWallets.lockAll(
        tx,
        s.network,
        wallets.map((w) => w.address),
      );
      const outstanding = await this.payouts.outstanding(tx, s.network);
      const cheapest = feesFor(market, 'LOW', s.maxFeeWei);
      const lanes: Lane[] = seen.map(({ w, balances, refusal }) => {
        const row = rows.get(w.address.toLowerCase());
        if (!row) throw new Error(`hot wallet ${w.address} on ${s.network} is not registered`);
        const out: Outstanding = outstanding.get(w.address.toLowerCase()) ?? { micros: 0n, transactions: 0, open: 0 };
        // Gas still owed by what is signed and not mined: each may cost up to its limit at today's max fee.
        const native = balances.nativeWei - BigInt(out.transactions) * gasLimit * (2n * market.nextBaseFeeWei);
        const float = balances.usdtMicros - out.micros;
        const wait: LaneWait | null = row.stopped
          ? 'stopped'
          : refusal !== undefined
            ? 'token_refuses_wallet'
            : cheapest && native < gasLimit * cheapest.maxFeePerGas
              ? 'gas_short'
              : float <= 0n
                ? 'usdt_short'
                : out.transactions >= cap
                  ? 'in_flight_cap'
                  : null;
        return { wallet: w, row, float, native, inFlight: out.transactions, nonce: row.nextNonce, wait, batch: [] };
      });
      // What the pool can pay at all: lanes not stopped nor refused (full or short ones may pay later).
      const able = lanes.filter((l) => l.wait !== 'stopped' && l.wait !== 'token_refuses_wallet');
      const maxFloat = able.reduce((m, l) => (l.float > m ? l.float : m), 0n);
      const open = lanes.filter((l) => l.wait === null);
      const room = Math.min(
        this.config.CHAIN_BATCH,
        open.reduce((n, l) => n + (cap - l.inFlight), 0),
      );
      const listed = room > 0 ? await this.payouts.unsigned(tx, s.network, room, maxFloat) : [];
      const blocked = await this.screened(s.network, listed);
      const due = listed.filter((w) => !blocked.has(w.id));
      const plan = this.plan(due, open, market, s, gasLimit, cap);
      const refused = await this.simulate(rail, plan.assigned);
      const signed: { withdrawal: Withdrawal; version: PayoutVersion }[] = [];
      for (const { w, lane, fees } of plan.assigned) {
        if (refused.has(w.id)) continue;
        lane.batch.push({ withdrawal: w, version: await this.signTransfer(s, rail, lane, w, fees, now) });
        lane.nonce += 1n;
      }
      for (const lane of lanes) {
        if (lane.batch.length === 0) continue;
        signed.push(...(await this.payouts.assign(tx, s.network, lane.wallet.address, lane.batch)));
        await this.hotWallets.advance(tx, s.network, lane.wallet.address, lane.nonce, now);
      }
      await this.payouts.setAside(tx, plan.feeCapped, 'fee_cap', now);
      // Larger than every lane's float (when some lane holds any: an empty pool makes all wait in turn): aside, the others go on.
      const aside = maxFloat > 0n ? await this.payouts.setAsideAbove(tx, s.network, maxFloat, now) : 0;
      await this.failRefused(tx, refused, now);
      await this.failBlocked(tx, blocked, now);
      for (const lane of lanes) await this.laneWaits(tx, s.network, lane, now);
      return {
        signed,
        lanes: lanes.map((l) => ({ address: l.wallet.address, wait: l.wait })),
        more: signed.length === room && room === this.config.CHAIN_BATCH,
        aside,
      };
    });
    this.looked.set(s.network, { at: now.getTime(), lanes: round.lanes });
    if (round.aside > 0)
      this.logger.warn(`${round.aside} withdrawal(s) on ${s.network} larger than every hot wallet's float wait aside (exceeds_float)`);
    return { signed: round.signed, lanes: round.lanes, more: round.more };
  }

  /**
   * Each withdrawal, in order, to the least loaded lane that can pay it now (float, gas, room); those whose
   * fee choice is above the cap now wait aside; those no lane can take this round stay in their turn.
   */
  private plan(due: Withdrawal[], open: Lane[], market: FeeMarket, s: NetworkSettings, gasLimit: bigint, cap: number) {
    const assigned: { w: Withdrawal; lane: Lane; fees: Fees }[] = [];
    const feeCapped: number[] = [];
    for (const w of due) {
      const fees = feesFor(market, w.feeChoice, s.maxFeeWei);
      if (!fees) {
        feeCapped.push(w.id);
        continue;
      }
      let best: Lane | undefined;
      for (const l of open)
        if (l.inFlight < cap && l.float >= w.amountMicros && l.native >= gasLimit * fees.maxFeePerGas)
          if (!best || l.inFlight < best.inFlight) best = l;
      if (!best) continue;
      best.inFlight += 1;
      best.float -= w.amountMicros;
      best.native -= gasLimit * fees.maxFeePerGas;
      assigned.push({ w, lane: best, fees });
    }
    for (const l of open) if (l.inFlight >= cap) l.wait = 'in_flight_cap';
    return { assigned, feeCapped };
  }

  /**
   * Simulates each planned transfer from its lane (16 at a time): the withdrawals the token refuses, with the
   * node's reason. The lanes' probes passed this round, so a refusal is the destination's.
   */
  private async simulate(rail: PayoutRail, assigned: { w: Withdrawal; lane: Lane }[]): Promise<Map<number, string>> {
    const refused = new Map<number, string>();
    await inParallel(assigned, 16, async ({ w, lane }) => {
      const reason = await rail.simulateTransfer(lane.wallet.address, getAddress(w.address.toLowerCase()), w.amountMicros);
      if (reason !== undefined) refused.set(w.id, reason);
    });
    return refused;
  }

  private async signTransfer(
    s: NetworkSettings,
    rail: PayoutRail,
    lane: Lane,
    w: Withdrawal,
    fees: Fees,
    now: Date,
  ): Promise<NewPayoutVersion> {
    const rawTx = await lane.wallet.signer.sign({
      chainId: s.chainId,
      nonce: lane.nonce,
      to: rail.token,
      data: rail.transferData(getAddress(w.address.toLowerCase()), w.amountMicros),
      gas: BigInt(this.config.CHAIN_GAS_LIMIT),
      ...fees,
    });
    return {
      nonce: lane.nonce,
      txHash: hashOf(rawTx),
      rawTx,
      maxFeePerGasWei: fees.maxFeePerGas,
      maxPriorityFeeWei: fees.maxPriorityFeePerGas,
      createdAt: now,
      kind: 'transfer',
    };
  }

  /** The withdrawals among `due` whose destination is listed now, with the hit. */
  private async screened(network: Network, due: Withdrawal[]): Promise<Map<number, ScreeningHit>> {
    if (due.length === 0) return new Map();
    const hits = await this.screening.screen(
      network,
      due.map((w) => w.address),
      'signing',
    );
    const blocked = new Map<number, ScreeningHit>();
    for (const w of due) {
      const hit = hits.get(w.address.toLowerCase());
      if (hit) blocked.set(w.id, hit);
    }
    return blocked;
  }

  /** Withdrawals whose destination became listed: failed before signing (address_blocked), the hold released. */
  private async failBlocked(tx: Transaction, blocked: Map<number, ScreeningHit>, now: Date): Promise<void> {
    for (const w of await this.failBeforeSigning.execute(tx, [...blocked.keys()], 'address_blocked', now))
      this.logger.warn(`withdrawal ${w.id} failed on ${w.network} before signing: ${blocked.get(w.id)?.message}; hold released`);
  }

  /** Withdrawals the token would refuse for their destination: failed before signing, the hold released, each with its event. */
  private async failRefused(tx: Transaction, refused: Map<number, string>, now: Date): Promise<void> {
    for (const w of await this.failBeforeSigning.execute(tx, [...refused.keys()], 'destination_refused', now)) {
      this.logger.warn(
        `withdrawal ${w.id} failed on ${w.network} before signing: the token refuses its destination (${refused.get(w.id)}); hold released`,
      );
    }
  }

  /** Records why the lane waits (the operator's view), logged once when it changes. */
  private async laneWaits(tx: Transaction, network: Network, lane: Lane, now: Date): Promise<void> {
    const address = lane.wallet.address;
    // `stopped` is the finding's (stopped_by), and a lane full (in_flight_cap) is busy, not held back: neither
    // is a waiting reason of the lane (the view shows `in_flight`; the metric counts full lanes).
    const reason = lane.wait === 'stopped' || lane.wait === 'in_flight_cap' ? null : lane.wait;
    if (!(await this.hotWallets.setWaiting(tx, network, address, reason, now))) return;
    if (reason) this.logger.warn(`hot wallet ${address} on ${network} waits: ${reason}`);
    else if (lane.row.waiting) this.logger.log(`hot wallet ${address} on ${network} signs again (was waiting: ${lane.row.waiting.reason})`);
  }

  private watchBalances(s: NetworkSettings, address: Address, b: { usdtMicros: bigint; nativeWei: bigint }): void {
    const labels = { network: s.network, wallet: address.toLowerCase() };
    this.metrics.usdt.set(labels, Number(b.usdtMicros));
    this.metrics.native.set(labels, Number(b.nativeWei));
    const lowUsdt = b.usdtMicros < s.lowUsdtMicros ? 1 : 0;
    const lowNative = b.nativeWei < s.lowNativeWei ? 1 : 0;
    // A line when the wallet goes low (not every round while it stays low).
    const key = `${s.network}:${address}`;
    if ((lowUsdt || lowNative) && !this.low.get(key))
      this.logger.warn(
        `hot wallet ${address} low on ${s.network}: ${b.usdtMicros} USDT micros, ${b.nativeWei} wei of gas (alerts below ${s.lowUsdtMicros} and ${s.lowNativeWei})`,
      );
    this.low.set(key, lowUsdt || lowNative);
    this.metrics.low.set({ ...labels, asset: 'usdt' }, lowUsdt);
    this.metrics.low.set({ ...labels, asset: 'native' }, lowNative);
  }
}
