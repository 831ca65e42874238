import { Module } from '@nestjs/common';
import { ManageReportsUseCase } from './manage-reports.use-case';
import { ReportsController } from './reports.controller';

/** Operator API: reports of settled withdrawals to the Receita Federal, kept by the withdrawals service. */
@Module({
  controllers: [ReportsController],
  providers: [ManageReportsUseCase],
})
export class ReportsModule {}
