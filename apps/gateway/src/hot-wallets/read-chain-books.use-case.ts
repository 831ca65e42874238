import { Injectable } from '@nestjs/common';
import { ListFindingsResult, ListHotWalletsResult, ReconcileResult, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

/**
 * The operator's chain views, kept by the withdrawals service: the hot wallets (balances read off each
 * network's node now), a reconciliation run, and its findings.
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

  async findings(): Promise<ListFindingsResult> {
    return unwrap(await this.bus.request(Topics.WithdrawalsFindings, { asked_at: new Date().toISOString() }));
  }
}
