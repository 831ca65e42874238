import { Injectable } from '@nestjs/common';
import {
  CancelPayoutRequest,
  FindingNoteRequest,
  FindingStatus,
  FindingStep,
  ListFindingsResult,
  ListHotWalletsResult,
  PayoutView,
  ReconcileResult,
  ReconciliationFindingView,
  Topics,
} from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

/**
 * The operator's chain views, kept by the withdrawals service: the hot wallets (balances read off each
 * network's node now), a reconciliation run, its findings, an operator's step on one, and the cancel of a
 * payout's nonce.
 */
@Injectable()
export class ReadChainBooksUseCase {
  constructor(private readonly bus: MessageBus) {}

  async hotWallets(): Promise<ListHotWalletsResult> {
    return unwrap(await this.bus.request(Topics.WithdrawalsHotWallets, { asked_at: new Date().toISOString() }));
  }

  async reconcile(): Promise<ReconcileResult> {
    return unwrap(await this.bus.request(Topics.WithdrawalsReconcile, { asked_at: new Date().toISOString() }));
  }

  async findings(status?: FindingStatus): Promise<ListFindingsResult> {
    return unwrap(
      await this.bus.request(Topics.WithdrawalsFindings, { asked_at: new Date().toISOString(), ...(status ? { status } : {}) }),
    );
  }

  /** Acknowledges or resolves finding `id`, recorded as done `by` the operator key. */
  async step(id: number, step: FindingStep, body: FindingNoteRequest, by: string): Promise<ReconciliationFindingView> {
    return unwrap(
      await this.bus.request(Topics.WithdrawalsFindingStep, {
        finding_id: id,
        step,
        note: body.note,
        by,
        asked_at: new Date().toISOString(),
      }),
    );
  }

  /** Cancels the nonce withdrawal `withdrawalId`'s payout holds, recorded as asked `by` the operator key. */
  async cancelPayout(withdrawalId: number, body: CancelPayoutRequest, by: string): Promise<PayoutView> {
    return unwrap(
      await this.bus.request(Topics.WithdrawalsCancelPayout, {
        withdrawal_id: withdrawalId,
        note: body.note,
        by,
        asked_at: new Date().toISOString(),
      }),
    );
  }
}
