import { Module } from '@nestjs/common';
import { CreateWithdrawalReportUseCase } from './create-withdrawal-report.use-case';
import { FileWithdrawalReportUseCase } from './file-withdrawal-report.use-case';
import { GetWithdrawalReportUseCase } from './get-withdrawal-report.use-case';
import { WithdrawalReportRepository } from './withdrawal-report.repository';
import { WithdrawalReportsHandler } from './withdrawal-reports.handler';

/** Reports of settled withdrawals to the Receita Federal, and the contract's `reported` state (docs/operations/reports.md). */
@Module({
  controllers: [WithdrawalReportsHandler],
  providers: [WithdrawalReportRepository, CreateWithdrawalReportUseCase, GetWithdrawalReportUseCase, FileWithdrawalReportUseCase],
})
export class WithdrawalReportsModule {}
