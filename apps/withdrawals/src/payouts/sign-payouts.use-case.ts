import { Inject, Injectable, Logger } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { getAddress } from 'viem';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { feesFor } from './payout-fees';
import { PayoutMetrics } from './payout-metrics';
import { MAX_OPEN_PAYOUTS, NetworkSettings } from './payout-settings';
import { PAYOUT_RAILS, PAYOUT_SIGNER, PayoutRails, PayoutSigner } from './payout-rail';
import { NewPayoutVersion, PayoutRepository, PayoutVersion } from './payout.repository';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { hashOf } from './payout-signers';

export type WaitReason = 'usdt' | 'gas' | 'fee_cap';

/** What a signing round did: the versions it stored (to broadcast), why the rest wait, whether more can be signed now. */
export interface SigningRound {
  signed: { withdrawal: Withdrawal; version: PayoutVersion }[];
  waiting?: WaitReason;
  more?: boolean;
}

/**
 * Signs the next withdrawals of one network, in the order they were asked: each gets the wallet's next
 * nonce, and its signed transaction and hash are stored in the same database transaction as the nonce,
 * before anything is broadcast (so a crash at any point re-broadcasts these bytes and never signs a
 * second payment). The wallet's row stays locked meanwhile: one signer per wallet across instances.
 * A withdrawal the wallet cannot pay now (USDT, gas) or only above the fee cap waits, and every one
 * after it too (they go in order).
 */
@Injectable()
export class SignPayoutsUseCase {
  private readonly logger = new Logger('payouts');
  private readonly low = new Map<Network, number>();

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly payouts: PayoutRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(PAYOUT_SIGNER) private readonly signer: PayoutSigner,
  ) {}

  /**
   * Signs what can be paid now; answers what was signed (stored, to broadcast), when some wait, why, and
   * whether a full batch was signed with room for more (`more`: the next round need not wait its pause).
   */
  async execute(s: NetworkSettings, now = new Date()): Promise<SigningRound> {
    const rail = this.rails[s.network];
    const from = this.signer.address;
    const [market, balances] = await Promise.all([rail.feeMarket(), rail.balances(from)]);
    this.watchBalances(s, balances);
    const gasLimit = BigInt(this.config.CHAIN_GAS_LIMIT);
    return this.unitOfWork.run(async (tx) => {
      const wallet = await this.hotWallets.lock(tx, s.network, from);
      // Stopped by a nonce_ahead finding (GuardWalletNonceUseCase): nothing is signed until it is resolved.
      if (wallet.stopped) return { signed: [] };
      const out = await this.payouts.outstanding(tx, s.network, from);
      const room = Math.min(this.config.CHAIN_BATCH, MAX_OPEN_PAYOUTS - out.open);
      if (room <= 0) return { signed: [] };
      const due = await this.payouts.unsigned(tx, s.network, room);
      if (due.length === 0) return { signed: [] };
      let usdtLeft = balances.usdtMicros - out.micros;
      // Gas still owed by what is signed and not mined: each may cost up to its limit at today's max fee.
      let nativeLeft = balances.nativeWei - BigInt(out.transactions) * gasLimit * (2n * market.nextBaseFeeWei);
      let nonce = wallet.nextNonce;
      let waiting: WaitReason | undefined;
      const batch: { withdrawal: Withdrawal; version: NewPayoutVersion }[] = [];
      for (const w of due) {
        const fees = feesFor(market, w.feeChoice, s.maxFeeWei);
        if (!fees) waiting = 'fee_cap';
        else if (usdtLeft < w.amountMicros) waiting = 'usdt';
        else if (nativeLeft < gasLimit * fees.maxFeePerGas) waiting = 'gas';
        if (waiting || !fees) break;
        const rawTx = await this.signer.sign({
          chainId: s.chainId,
          nonce,
          to: rail.token,
          data: rail.transferData(getAddress(w.address.toLowerCase()), w.amountMicros),
          gas: gasLimit,
          ...fees,
        });
        batch.push({
          withdrawal: w,
          version: {
            nonce,
            txHash: hashOf(rawTx),
            rawTx,
            maxFeePerGasWei: fees.maxFeePerGas,
            maxPriorityFeeWei: fees.maxPriorityFeePerGas,
            createdAt: now,
          },
        });
        nonce += 1n;
        usdtLeft -= w.amountMicros;
        nativeLeft -= gasLimit * fees.maxFeePerGas;
      }
      const signed = await this.payouts.assign(tx, s.network, from, batch);
      if (nonce !== wallet.nextNonce) await this.hotWallets.advance(tx, s.network, from, nonce, now);
      if (waiting) return { signed, waiting };
      return { signed, more: signed.length === this.config.CHAIN_BATCH && out.open + signed.length < MAX_OPEN_PAYOUTS };
    });
  }

  private watchBalances(s: NetworkSettings, b: { usdtMicros: bigint; nativeWei: bigint }): void {
    this.metrics.usdt.set({ network: s.network }, Number(b.usdtMicros));
    this.metrics.native.set({ network: s.network }, Number(b.nativeWei));
    const lowUsdt = b.usdtMicros < s.lowUsdtMicros ? 1 : 0;
    const lowNative = b.nativeWei < s.lowNativeWei ? 1 : 0;
    // A line when the wallet goes low (not every round while it stays low).
    const was = this.low.get(s.network) ?? 0;
    if ((lowUsdt || lowNative) && !was)
      this.logger.warn(
        `hot wallet low on ${s.network}: ${b.usdtMicros} USDT micros, ${b.nativeWei} wei of gas (alerts below ${s.lowUsdtMicros} and ${s.lowNativeWei})`,
      );
    this.low.set(s.network, lowUsdt || lowNative);
    this.metrics.low.set({ network: s.network, asset: 'usdt' }, lowUsdt);
    this.metrics.low.set({ network: s.network, asset: 'native' }, lowNative);
  }
}
