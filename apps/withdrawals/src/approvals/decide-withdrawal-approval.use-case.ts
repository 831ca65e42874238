import { Injectable, Logger } from '@nestjs/common';
import { DecideWithdrawalApprovalCommand, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { FailBeforeSigning } from '../payouts/fail-before-signing';
import { PayoutRepository } from '../payouts/payout.repository';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { WithdrawalApprovalRepository } from './withdrawal-approval.repository';

const STATUS = { approve: 'approved', reject: 'rejected' } as const;

/**
 * An operator decides a withdrawal waiting in pending_approval, in one transaction with the approval and the
 * withdrawal locked: approve → the withdrawal becomes `created` (its event written; the payout round pays it
 * as any other); reject → it fails `rejected_by_operator`, its hold released, its event written. The same
 * decision again answers the approval as decided; the other one, or a withdrawal no longer waiting (screened
 * out meanwhile), is invalid_transition.
 */
@Injectable()
export class DecideWithdrawalApprovalUseCase {
  private readonly logger = new Logger('approvals');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly approvals: WithdrawalApprovalRepository,
    private readonly payouts: PayoutRepository,
    private readonly failBeforeSigning: FailBeforeSigning,
  ) {}

  async execute(c: DecideWithdrawalApprovalCommand): Promise<RequestReply<typeof Topics.WithdrawalsDecideApproval>> {
    const wanted = STATUS[c.decision];
    const now = new Date(c.asked_at);
    const outcome = await this.unitOfWork.run(async (tx) => {
      const found = await this.approvals.lock(tx, c.approval_id);
      if (!found) return fail('not_found', `no approval ${c.approval_id}`);
      if (found.status !== 'pending_approval')
        return found.status === wanted
          ? ok(found)
          : fail('invalid_transition', `approval ${found.id} is ${found.status}: it cannot be ${wanted} now`);
      const moved =
        wanted === 'approved'
          ? await this.payouts.approve(tx, found.withdrawal_id, now)
          : (await this.failBeforeSigning.execute(tx, [found.withdrawal_id], 'rejected_by_operator', now))[0];
      if (!moved) return fail('invalid_transition', `withdrawal ${found.withdrawal_id} no longer waits for approval (it failed meanwhile)`);
      if (wanted === 'approved') tx.emit(stateChanged(moved));
      await this.approvals.decide(tx, found.id, wanted, c.by, now, c.note ?? null);
      return ok({ ...found, status: wanted, decided_by: c.by, decided_at: Math.floor(now.getTime() / 1000), note: c.note ?? null });
    });
    if (outcome.ok && outcome.data.decided_at === Math.floor(now.getTime() / 1000))
      this.logger.log(
        `${c.by} ${wanted} withdrawal ${outcome.data.withdrawal_id} (approval ${outcome.data.id})${c.note ? `: ${c.note}` : ''}`,
      );
    return outcome;
  }
}
