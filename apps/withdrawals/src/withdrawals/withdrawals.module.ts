import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AdvanceWithdrawalsUseCase } from '../chain/advance-withdrawals.use-case';
import { ChainSimulatorService } from '../chain/chain-simulator.service';
import { RefusalsModule } from '../refusals/refusals.module';
import { CreateWithdrawalHandler } from './create-withdrawal.handler';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { GetWithdrawalHandler } from './get-withdrawal.handler';
import { GetWithdrawalUseCase } from './get-withdrawal.use-case';
import { WithdrawalRepository } from './withdrawal.repository';

@Module({
  imports: [AccountsModule, RefusalsModule],
  controllers: [CreateWithdrawalHandler, GetWithdrawalHandler],
  providers: [
    WithdrawalRepository,
    CreateWithdrawalUseCase,
    GetWithdrawalUseCase,
    AdvanceWithdrawalsUseCase,
    ChainSimulatorService,
  ],
})
export class WithdrawalsModule {}
