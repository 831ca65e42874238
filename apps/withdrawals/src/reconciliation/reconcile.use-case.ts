import { Inject, Injectable, Logger } from '@nestjs/common';
import { Network, NETWORKS, ReconcileResult } from '@partner/contracts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWallet, HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { FindingRepository, findingSubject } from '../payouts/finding.repository';
import { GuardWalletNonceUseCase } from '../payouts/guard-wallet-nonce.use-case';
import { PayoutMetrics } from '../payouts/payout-metrics';
import { Address, MinedReceipt, PAYOUT_RAILS, PayoutRail, PayoutRails, ReceiptInDoubt } from '../hot-wallets/payout-rail';
import { transferMismatch, usdtMoved } from '../payouts/settlement-rule';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { ReconciliationRepository } from './reconciliation.repository';

type Find = (kind: string, withdrawalId: number | null, subject: string, detail: string) => Promise<void>;

const BATCH = 200;
/**
 * An operator's run (the reconcile command) reads receipts for this long at most, then answers what it checked: the
 * gateway waits REQUEST_TIMEOUT_MS (10 s) for the answer, and a backlog of receipts can take longer. The rest are
 * checked by the next run; the periodic run has no such limit.
 */
export const ON_DEMAND_RECEIPTS_BUDGET_MS = 5_000;

/**
 * Checks the books against the chain: every final withdrawal's receipt (a settled one: exactly one USDT
 * Transfer from the hot wallet to its address of exactly its amount, in the block recorded; a failed
 * one: reverted, nothing moved), the wallet's nonce (nothing mined from it that the books do not know:
 * GuardWalletNonceUseCase, which also stops its signing) and every USDT Transfer out of the wallet up to
 * the final block (each one a withdrawal of ours explains, by its hash, destination and amount). A
 * mismatch is recorded once as a finding, counted and logged as an error: never mended here.
 */
@Injectable()
export class ReconcileUseCase {
  private readonly logger = new Logger('reconciliation');

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly findings: ReconciliationRepository,
    private readonly recorder: FindingRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly guard: GuardWalletNonceUseCase,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
  ) {}

  /** `receiptsBudgetMs`: stop reading receipts (for every network together) once this long has passed. */
  async execute(now = new Date(), receiptsBudgetMs?: number): Promise<ReconcileResult> {
    const stopAt = receiptsBudgetMs === undefined ? Infinity : Date.now() + receiptsBudgetMs;
    const result: ReconcileResult = { checked: 0, matched: 0, new_findings: 0, networks: [] };
    for (const network of NETWORKS) {
      try {
        const r = await this.network(network, now, stopAt);
        result.checked += r.checked;
        result.matched += r.matched;
        result.new_findings += r.newFindings;
        result.networks.push({ network, checked: r.checked, matched: r.matched, new_findings: r.newFindings, error: null });
      } catch (error) {
        result.networks.push({
          network,
          checked: 0,
          matched: 0,
          new_findings: 0,
          error: `the ${network} node did not answer: ${(error as Error).message.split('\n')[0]}`,
        });
      }
    }
    return result;
  }

  private async network(network: Network, now: Date, stopAt: number): Promise<{ checked: number; matched: number; newFindings: number }> {
    const rail = this.rails[network];
    let checked = 0;
    let matched = 0;
    let newFindings = 0;
    const find: Find = async (kind, withdrawalId, subject, detail) => {
      if ((await this.recorder.record(network, kind, withdrawalId, subject, detail)) === null) return;
      newFindings++;
      this.metrics.mismatches.inc({ network, kind });
      this.logger.error(`reconciliation on ${network}: ${kind}${withdrawalId === null ? '' : ` (withdrawal ${withdrawalId})`}: ${detail}`);
    };
    // The wallets first (their nonces, every transfer out): a stolen key must not wait behind thousands of
    // receipts. Every wallet the books know on the network, in the pool or retired from it.
    for (const wallet of (await this.hotWallets.list()).filter((w) => w.network === network)) {
      if ((await this.guard.execute(network, wallet.address as Address, now))?.recorded) newFindings++;
      await this.outsideTransfers(rail, wallet, find);
    }
    for (;;) {
      const batch = await this.findings.unchecked(network, BATCH);
      const ok: number[] = [];
      let outOfTime = false;
      for (const w of batch) {
        if (Date.now() > stopAt) {
          outOfTime = true;
          break;
        }
        checked++;
        let receipt;
        try {
          receipt = w.txHash ? await rail.receipt(w.txHash as `0x${string}`) : null;
        } catch (error) {
          // A reorg under way or nodes that disagree now: checked again on the next run.
          if (error instanceof ReceiptInDoubt) continue;
          throw error;
        }
        const problem = this.problemOf(w, receipt, (w.payout.fromAddress ?? '').toLowerCase(), rail.token);
        if (problem) await find(problem.kind, w.id, findingSubject.withdrawal(w.id), problem.detail);
        else matched++;
        ok.push(w.id); // checked: a finding stays recorded, the withdrawal is not looked at again
      }
      await this.findings.markChecked(ok, now);
      if (outOfTime || batch.length < BATCH) break;
    }
    return { checked, matched, newFindings };
  }

  /**
   * Every USDT Transfer out of the wallet since the last block scanned (first: its registration block, or
   * RECONCILE_FROM_BLOCK_<network>) up to the final block, RECONCILE_LOGS_MAX_BLOCKS per eth_getLogs; the
   * cursor moves after each range, so a run cut short goes on where it stopped. One finding per Transfer
   * no withdrawal of ours explains (its hash, destination and amount).
   */
  private async outsideTransfers(rail: PayoutRail, wallet: HotWallet, find: Find): Promise<void> {
    const network = rail.network;
    const final = await rail.finalBlock();
    const maxBlocks = BigInt(this.config.RECONCILE_LOGS_MAX_BLOCKS);
    let start = wallet.scannedBlock !== null ? wallet.scannedBlock + 1n : (wallet.registeredBlock ?? BigInt(this.fromBlock(network)));
    while (start <= final) {
      const end = start + maxBlocks - 1n < final ? start + maxBlocks - 1n : final;
      const transfers = await rail.transfersFrom(wallet.address as Address, start, end);
      const paid = await this.findings.paidBy(network, wallet.address, [...new Set(transfers.map((t) => t.txHash))]);
      for (const t of transfers) {
        const ours = paid.get(t.txHash.toLowerCase()) ?? [];
        if (ours.some((w) => w.address === t.to.toLowerCase() && w.micros === t.value)) continue;
        const books =
          ours.length === 0
            ? 'no withdrawal of ours has that hash'
            : `the books say ${ours.map((w) => `${w.micros} to ${w.address}`).join('; ')}`;
        await find(
          'outside_transfer',
          null,
          findingSubject.transfer(t.txHash, t.logIndex),
          `${t.txHash} (log ${t.logIndex}, block ${t.blockNumber}) moved ${t.value} USDT micros from ${wallet.address} to ${t.to.toLowerCase()}; ${books}`,
        );
      }
      await this.hotWallets.scanned(network, wallet.address, end);
      start = end + 1n;
    }
  }

  private fromBlock(network: Network): number {
    return network === 'ETH' ? this.config.RECONCILE_FROM_BLOCK_ETH : this.config.RECONCILE_FROM_BLOCK_MATIC;
  }

  /** What is wrong with a final withdrawal's receipt, or undefined when it is exactly as the books say. */
  private problemOf(w: Withdrawal, r: MinedReceipt | null, from: string, token: string): { kind: string; detail: string } | undefined {
    if (!r) return { kind: 'receipt_missing', detail: `no receipt for ${w.txHash ?? '(no hash)'} on chain` };
    if (w.payout.blockHash && r.blockHash !== w.payout.blockHash)
      return { kind: 'block_changed', detail: `${r.txHash} is in block ${r.blockHash}, the books say ${w.payout.blockHash}` };
    if (w.state === 'failed')
      return r.succeeded || usdtMoved(r, token)
        ? { kind: 'failed_but_paid', detail: `${r.txHash} succeeded or moved USDT, the books say it failed` }
        : undefined;
    if (!r.succeeded) return { kind: 'settled_but_reverted', detail: `${r.txHash} reverted, the books say it settled` };
    const mismatch = transferMismatch(r, { token, from, to: w.address, micros: w.amountMicros });
    if (mismatch) return { kind: 'transfer_mismatch', detail: mismatch };
    return undefined;
  }
}
