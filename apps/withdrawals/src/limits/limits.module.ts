import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { GetLimitsUseCase } from './get-limits.use-case';
import { LimitsHandler } from './limits.handler';
import { LimitsRepository } from './limits.repository';
import { SetLimitsUseCase } from './set-limits.use-case';

/** Withdrawal limits (docs/operations/limits.md): set by the operator, applied by the withdrawals' creation. */
@Module({
  imports: [AccountsModule],
  controllers: [LimitsHandler],
  providers: [LimitsRepository, SetLimitsUseCase, GetLimitsUseCase],
  exports: [LimitsRepository],
})
export class LimitsModule {}
