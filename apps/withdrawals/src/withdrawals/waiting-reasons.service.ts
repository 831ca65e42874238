import { Inject, Injectable } from '@nestjs/common';
import { WithdrawalWaitingReason } from '@partner/contracts';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { HOT_WALLET_POOL, HotWalletPool } from '../hot-wallets/hot-wallet-pool';
import { networkWaits, NetworkWaits, waitingReason } from './waiting-reason';
import { Withdrawal } from './withdrawal.repository';

/** The read-backs' `waiting_reason`: reads the lanes once per answer, and only when one of its withdrawals waits in turn. */
@Injectable()
export class WaitingReasons {
  /** The pool's wallets given withdrawals (lower case): the lanes that count. */
  private readonly signing: ReadonlySet<string>;

  constructor(
    private readonly hotWallets: HotWalletRepository,
    @Inject(HOT_WALLET_POOL) pool: HotWalletPool,
  ) {
    this.signing = new Set(pool.signing.map((w) => w.address.toLowerCase()));
  }

  /** Each withdrawal's reason, in order. */
  async of(withdrawals: readonly Withdrawal[]): Promise<(WithdrawalWaitingReason | null)[]> {
    const queued = withdrawals.some((w) => w.state === 'created' && w.payout.state === 'queued');
    const waits: NetworkWaits = queued ? networkWaits(await this.hotWallets.list(), this.signing) : new Map();
    return withdrawals.map((w) => waitingReason(w, waits));
  }
}
