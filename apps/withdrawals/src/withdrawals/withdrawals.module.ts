import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { RefusalsModule } from '../refusals/refusals.module';
import { LimitsModule } from '../limits/limits.module';
import { WithdrawalApprovalsModule } from '../approvals/withdrawal-approvals.module';
import { DestinationsModule } from '../destinations/destinations.module';
import { CreateWithdrawalHandler } from './create-withdrawal.handler';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { GetWithdrawalHandler } from './get-withdrawal.handler';
import { GetWithdrawalUseCase } from './get-withdrawal.use-case';
import { ListWithdrawalsHandler } from './list-withdrawals.handler';
import { ListWithdrawalsUseCase } from './list-withdrawals.use-case';
import { WaitingReasons } from './waiting-reasons.service';
import { WithdrawalRepository } from './withdrawal.repository';

@Module({
  imports: [AccountsModule, RefusalsModule, PayoutsModule, LimitsModule, WithdrawalApprovalsModule, DestinationsModule],
  controllers: [CreateWithdrawalHandler, GetWithdrawalHandler, ListWithdrawalsHandler],
  providers: [WithdrawalRepository, CreateWithdrawalUseCase, GetWithdrawalUseCase, ListWithdrawalsUseCase, WaitingReasons],
})
export class WithdrawalsModule {}
