import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@partner/db';
import { getAddress } from 'viem';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { ReconciliationRepository } from '../reconciliation/reconciliation.repository';
import { replacementFees } from './payout-fees';
import { PayoutMetrics } from './payout-metrics';
import { NetworkSettings } from './payout-settings';
import { FeeMarket, Hex, MinedReceipt, PAYOUT_RAILS, PAYOUT_SIGNER, PayoutRail, PayoutRails, PayoutSigner } from './payout-rail';
import { hashOf } from './payout-signers';
import { OpenPayout, PayoutRepository, PayoutVersion } from './payout.repository';

/** Open payouts followed per round and network. */
const OPEN_PER_ROUND = 500;

/**
 * Follows every signed payout of one network to its end, as the chain tells it:
 * - a version not yet accepted by a node is broadcast (the stored bytes, always); accepted → `sent`;
 * - a version the node no longer knows (dropped from its mempool) is broadcast again;
 * - one not mined within the bound is replaced: the same nonce, both fees raised at least 10 %, up to the cap;
 * - a receipt is recorded (block, gas spent); once its block is final the withdrawal is `settled`
 *   (status 1: the hold paid out) or `failed` (status 0: `transfer_reverted`, the hold released), in one
 *   transaction with its event and ledger entries; a receipt a reorg took away first sends it back to waiting.
 */
@Injectable()
export class TrackPayoutsUseCase {
  private readonly logger = new Logger('payouts');

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly payouts: PayoutRepository,
    private readonly accounts: AccountRepository,
    private readonly findings: ReconciliationRepository,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(PAYOUT_SIGNER) private readonly signer: PayoutSigner,
  ) {}

  async execute(s: NetworkSettings, now = new Date()): Promise<void> {
    const open = await this.payouts.open(s.network, this.signer.address, OPEN_PER_ROUND);
    if (open.length === 0) return;
    const rail = this.rails[s.network];
    const [finalBlock, minedNonce] = await Promise.all([rail.finalBlock(), rail.minedNonce(this.signer.address)]);
    let market: FeeMarket | undefined;
    const marketNow = async () => (market ??= await rail.feeMarket());
    for (const p of open) await this.follow(s, rail, p, finalBlock, minedNonce, marketNow, now);
  }

  private async follow(
    s: NetworkSettings,
    rail: PayoutRail,
    p: OpenPayout,
    finalBlock: bigint,
    minedNonce: bigint,
    market: () => Promise<FeeMarket>,
    now: Date,
  ): Promise<void> {
    const w = p.withdrawal;
    const mined = await this.minedVersion(rail, p.versions);
    if (mined) return this.onMined(s, w, mined, finalBlock, now);
    if (w.payout.blockNumber !== null) {
      this.metrics.reorgs.inc({ network: s.network });
      this.logger.warn(
        `withdrawal ${w.id}: its transaction's block ${w.payout.blockNumber} left the chain before it was final; waiting for it to be mined again`,
      );
      await this.payouts.clearMined(w.id);
    }
    if (w.payout.nonce !== null && w.payout.nonce < minedNonce) {
      // The wallet's nonce was used and none of our versions holds it: another transaction took it. Never
      // signed again here (that could pay twice): the operator decides (docs/operations.md, "A stuck payout").
      if (
        await this.findings.record(
          s.network,
          'nonce_taken',
          w.id,
          `nonce ${w.payout.nonce} of ${this.signer.address} was mined by a transaction that is not this withdrawal's`,
        )
      )
        this.metrics.mismatches.inc({ network: s.network, kind: 'nonce_taken' });
      return;
    }
    const latest = p.versions[p.versions.length - 1];
    if (!latest) return;
    if (!latest.acceptedAt) return this.broadcast(s, rail, w, latest, now);
    if (now.getTime() - latest.createdAt.getTime() >= s.replaceAfterMs) return this.replace(s, rail, w, latest, await market(), now);
    if (!(await rail.knows(latest.txHash))) {
      this.logger.warn(`withdrawal ${w.id}: ${latest.txHash} is no longer known to the ${s.network} node; broadcasting it again`);
      await this.broadcast(s, rail, w, latest, now);
    }
  }

  /** The receipt of whichever version was mined (newest first: a replacement is the likelier). */
  private async minedVersion(rail: PayoutRail, versions: PayoutVersion[]): Promise<MinedReceipt | null> {
    for (const v of [...versions].reverse()) {
      const r = await rail.receipt(v.txHash);
      if (r) return r;
    }
    return null;
  }

  private async onMined(s: NetworkSettings, w: Withdrawal, r: MinedReceipt, finalBlock: bigint, now: Date): Promise<void> {
    if (w.state === 'created') await this.markSent(w, r.txHash, now); // accepted before a crash took the answer
    if (r.blockNumber > finalBlock) {
      if (w.payout.blockHash !== r.blockHash || w.txHash !== r.txHash) await this.payouts.recordMined(w.id, r);
      return;
    }
    const outcome = r.succeeded ? 'settled' : 'failed';
    await this.unitOfWork.run(async (tx) => {
      await this.payouts.recordMined(w.id, r, tx);
      const done = await this.payouts.finish(tx, w.id, outcome, new Date());
      if (!done) return;
      await this.accounts.endHolds(
        tx,
        [
          {
            partnerId: done.partnerId,
            document: done.document,
            withdrawalId: done.id,
            micros: done.amountMicros + done.feeMicros,
            released: outcome === 'failed',
          },
        ],
        new Date(),
      );
      tx.emit(stateChanged(done));
      this.metrics.finished.inc({ network: s.network, state: outcome });
      if (outcome === 'failed')
        this.logger.warn(`withdrawal ${w.id} failed on ${s.network}: ${r.txHash} reverted in block ${r.blockNumber}; hold released`);
    });
  }

  private async broadcast(s: NetworkSettings, rail: PayoutRail, w: Withdrawal, v: PayoutVersion, now: Date): Promise<void> {
    const outcome = await rail.broadcast(v.rawTx);
    const label = outcome.accepted ? 'accepted' : outcome.kind;
    this.metrics.broadcasts.inc({ network: s.network, outcome: label });
    const accepted = outcome.accepted || outcome.kind === 'known';
    await this.payouts.markBroadcast(v.id, now, accepted);
    if (accepted) await this.markSent(w, v.txHash, now);
    else if (!outcome.accepted)
      // nonce_used: a version of ours was mined (its receipt ends it next round) or the nonce was taken;
      // underpriced: the base fee rose above its max fee (replaced after the bound); refused: logged, tried again.
      this.logger.warn(`withdrawal ${w.id}: the ${s.network} node refused ${v.txHash} (${outcome.kind}): ${outcome.reason}`);
  }

  private async replace(
    s: NetworkSettings,
    rail: PayoutRail,
    w: Withdrawal,
    previous: PayoutVersion,
    market: FeeMarket,
    now: Date,
  ): Promise<void> {
    const fees = replacementFees(
      { maxFeePerGas: previous.maxFeePerGasWei, maxPriorityFeePerGas: previous.maxPriorityFeeWei },
      market,
      w.feeChoice,
      s.maxFeeWei,
    );
    if (!fees) {
      // At the cap: keep the version out there in front of the nodes, and say so.
      this.logger.warn(
        `withdrawal ${w.id}: not mined after ${s.replaceAfterMs} ms and its fees are at the cap on ${s.network}; broadcasting it again`,
      );
      return this.broadcast(s, rail, w, previous, now);
    }
    const rawTx = await this.signer.sign({
      chainId: s.chainId,
      nonce: previous.nonce,
      to: rail.token,
      data: rail.transferData(getAddress(w.address.toLowerCase()), w.amountMicros),
      gas: BigInt(this.config.CHAIN_GAS_LIMIT),
      ...fees,
    });
    const txHash = hashOf(rawTx);
    const version = await this.unitOfWork.run((tx) =>
      this.payouts.addVersion(tx, w.id, s.network, this.signer.address, {
        nonce: previous.nonce,
        txHash,
        rawTx,
        maxFeePerGasWei: fees.maxFeePerGas,
        maxPriorityFeeWei: fees.maxPriorityFeePerGas,
        createdAt: now,
      }),
    );
    this.metrics.replacements.inc({ network: s.network });
    this.logger.log(
      `withdrawal ${w.id}: ${previous.txHash} not mined in ${s.replaceAfterMs} ms; replaced by ${txHash} (max fee ${fees.maxFeePerGas} wei)`,
    );
    await this.broadcast(s, rail, w, version, now);
  }

  private async markSent(w: Withdrawal, txHash: Hex, now: Date): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const sent = await this.payouts.markSent(tx, w.id, txHash, now);
      if (sent) tx.emit(stateChanged(sent));
    });
  }
}
