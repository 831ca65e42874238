import { Injectable } from '@nestjs/common';
import { Transaction } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { PayoutMetrics } from './payout-metrics';
import { PayoutRepository } from './payout.repository';

/**
 * Why a withdrawal fails before its payout is signed: `destination_refused`, the token would refuse the
 * transfer to its destination; `address_blocked`, its destination is on a screening list;
 * `rejected_by_operator`, an operator rejected it while it waited for approval.
 */
export type FailureBeforeSigning = 'destination_refused' | 'address_blocked' | 'rejected_by_operator';

/**
 * Ends withdrawals that were never signed as `failed`, in the caller's transaction: each with its reason and
 * its `failed` event, its hold released to the user's available balance with its ledger line. Only those
 * still unsigned (no nonce) change: one signed meanwhile is left to its payout.
 */
@Injectable()
export class FailBeforeSigning {
  constructor(
    private readonly payouts: PayoutRepository,
    private readonly accounts: AccountRepository,
    private readonly metrics: PayoutMetrics,
  ) {}

  async execute(tx: Transaction, ids: number[], reason: FailureBeforeSigning, now: Date): Promise<Withdrawal[]> {
    const failed = await this.payouts.failUnsigned(tx, ids, reason, now);
    await this.accounts.endHolds(
      tx,
      failed.map((w) => ({
        partnerId: w.partnerId,
        document: w.document,
        withdrawalId: w.id,
        micros: w.amountMicros + w.feeMicros,
        released: true,
      })),
      now,
    );
    for (const w of failed) {
      tx.emit(stateChanged(w));
      this.metrics.finished.inc({ network: w.network, state: 'failed' });
    }
    return failed;
  }
}
