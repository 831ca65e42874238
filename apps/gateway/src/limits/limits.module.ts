import { Module } from '@nestjs/common';
import { LimitsController } from './limits.controller';
import { ManageLimitsUseCase } from './manage-limits.use-case';

/** Operator API: withdrawal limits, kept and applied by the withdrawals service. */
@Module({
  controllers: [LimitsController],
  providers: [ManageLimitsUseCase],
})
export class LimitsModule {}
