import { Module } from '@nestjs/common';
import { ManageScreeningUseCase } from './manage-screening.use-case';
import { ScreeningController } from './screening.controller';

/** Operator API: the screening of withdrawal destinations, kept by the withdrawals service. */
@Module({
  controllers: [ScreeningController],
  providers: [ManageScreeningUseCase],
})
export class ScreeningModule {}
