import { Module } from '@nestjs/common';
import { ManageWithdrawalPolicyUseCase } from './manage-withdrawal-policy.use-case';
import { WithdrawalPolicyController } from './withdrawal-policy.controller';

/** Operator API: a partner's withdrawal policy, kept and applied by the withdrawals service. */
@Module({
  controllers: [WithdrawalPolicyController],
  providers: [ManageWithdrawalPolicyUseCase],
})
export class WithdrawalPolicyModule {}
