import { Module } from '@nestjs/common';
import { PayoutsModule } from '../payouts/payouts.module';
import { DecideWithdrawalApprovalUseCase } from './decide-withdrawal-approval.use-case';
import { WithdrawalApprovalRepository } from './withdrawal-approval.repository';
import { WithdrawalApprovalsHandler } from './withdrawal-approvals.handler';

/** Withdrawals above their partner's approval threshold and the operator's decisions (docs/operations/approvals.md). */
@Module({
  imports: [PayoutsModule],
  controllers: [WithdrawalApprovalsHandler],
  providers: [WithdrawalApprovalRepository, DecideWithdrawalApprovalUseCase],
  exports: [WithdrawalApprovalRepository],
})
export class WithdrawalApprovalsModule {}
