import { Inject, Injectable, Logger } from '@nestjs/common';
import { Network, NETWORKS, ReconcileResult } from '@partner/contracts';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { PayoutMetrics } from '../payouts/payout-metrics';
import { MinedReceipt, PAYOUT_RAILS, PAYOUT_SIGNER, PayoutRails, PayoutSigner } from '../payouts/payout-rail';
import { ReceiptInDoubt } from '../payouts/payout-rail';
import { transferMismatch, usdtMoved } from '../payouts/settlement-rule';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { ReconciliationRepository } from './reconciliation.repository';

const BATCH = 200;

/**
 * Checks the books against the chain: every final withdrawal's receipt (a settled one: exactly one USDT
 * Transfer from the hot wallet to its address of exactly its amount, in the block recorded; a failed
 * one: reverted, nothing moved) and the wallet's nonce (nothing mined from it that the books do not
 * know). A mismatch is recorded once as a finding, counted and logged as an error: never mended here.
 */
@Injectable()
export class ReconcileUseCase {
  private readonly logger = new Logger('reconciliation');

  constructor(
    private readonly findings: ReconciliationRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(PAYOUT_SIGNER) private readonly signer: PayoutSigner,
  ) {}

  async execute(now = new Date()): Promise<ReconcileResult> {
    const result: ReconcileResult = { checked: 0, matched: 0, new_findings: 0, networks: [] };
    for (const network of NETWORKS) {
      try {
        const r = await this.network(network, now);
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

  private async network(network: Network, now: Date): Promise<{ checked: number; matched: number; newFindings: number }> {
    const rail = this.rails[network];
    const from = this.signer.address.toLowerCase();
    let checked = 0;
    let matched = 0;
    let newFindings = 0;
    const find = async (kind: string, withdrawalId: number | null, detail: string) => {
      if (!(await this.findings.record(network, kind, withdrawalId, detail))) return;
      newFindings++;
      this.metrics.mismatches.inc({ network, kind });
      this.logger.error(`reconciliation on ${network}: ${kind}${withdrawalId === null ? '' : ` (withdrawal ${withdrawalId})`}: ${detail}`);
    };
    for (;;) {
      const batch = await this.findings.unchecked(network, BATCH);
      const ok: number[] = [];
      for (const w of batch) {
        checked++;
        let receipt;
        try {
          receipt = w.txHash ? await rail.receipt(w.txHash as `0x${string}`) : null;
        } catch (error) {
          // A reorg under way or nodes that disagree now: checked again on the next run.
          if (error instanceof ReceiptInDoubt) continue;
          throw error;
        }
        const problem = this.problemOf(w, receipt, from, rail.token);
        if (problem) await find(problem.kind, w.id, problem.detail);
        else matched++;
        ok.push(w.id); // checked: a finding stays recorded, the withdrawal is not looked at again
      }
      await this.findings.markChecked(ok, now);
      if (batch.length < BATCH) break;
    }
    const wallet = await this.hotWallets.find(network, from);
    if (wallet) {
      const minedNonce = await rail.minedNonce(this.signer.address);
      if (minedNonce > wallet.nextNonce)
        await find(
          'nonce_ahead',
          null,
          `the chain counts ${minedNonce} transactions from ${from}, the books handed out nonces up to ${wallet.nextNonce - 1n}`,
        );
    }
    return { checked, matched, newFindings };
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
