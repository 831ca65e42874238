import { Injectable, Logger } from '@nestjs/common';
import { CancelPayoutCommand, fail, ok, PayoutView, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { PayoutRepository } from './payout.repository';

/** A withdrawal's payout as the operator API shows it. */
export function toPayoutView(w: Withdrawal): PayoutView {
  return {
    withdrawal_id: w.id,
    network: w.network,
    state: w.state,
    payout_state: w.payout.state,
    reason: w.payout.reason,
    from_address: w.payout.fromAddress,
    nonce: w.payout.nonce === null ? null : Number(w.payout.nonce),
    tx_hash: w.txHash,
  };
}

/**
 * The operator cancels the nonce a withdrawal's payout holds: signed or broadcast, not yet mined →
 * `cancelling`, with who and why. Only the state moves here; the payout round signs the 0-value
 * self-transfer at that nonce (track-payouts.use-case.ts). It can never pay twice: the cancel and the
 * transfer share the nonce, so at most one of them is ever mined.
 */
@Injectable()
export class CancelPayoutUseCase {
  private readonly logger = new Logger('payouts');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly payouts: PayoutRepository,
  ) {}

  async execute(c: CancelPayoutCommand): Promise<RequestReply<typeof Topics.WithdrawalsCancelPayout>> {
    return this.unitOfWork.run(async (tx) => {
      const found = await this.payouts.lockOne(tx, c.withdrawal_id);
      if (!found) return fail('not_found', `no withdrawal ${c.withdrawal_id}`);
      const cancelling = await this.payouts.requestCancel(tx, c.withdrawal_id, `${c.by}: ${c.note}`);
      if (!cancelling)
        return fail(
          'invalid_transition',
          `withdrawal ${c.withdrawal_id}'s payout is ${found.withdrawal.payout.state}: only a signed payout not yet mined can be cancelled`,
        );
      const { fromAddress, nonce } = cancelling.payout;
      this.logger.warn(
        `withdrawal ${cancelling.id}: its nonce ${nonce} of ${fromAddress} on ${cancelling.network} is to be cancelled, asked by ${c.by}: ${c.note}`,
      );
      return ok(toPayoutView(cancelling));
    });
  }
}
