import { Controller } from '@nestjs/common';
import {
  CreateWithdrawalReportCommand,
  FileWithdrawalReportCommand,
  RequestReply,
  Topics,
  WithdrawalReportQuery,
} from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CreateWithdrawalReportUseCase } from './create-withdrawal-report.use-case';
import { FileWithdrawalReportUseCase } from './file-withdrawal-report.use-case';
import { GetWithdrawalReportUseCase } from './get-withdrawal-report.use-case';

/** The operator's reports of settled withdrawals to the Receita Federal: made, read, filed. */
@Controller()
export class WithdrawalReportsHandler {
  constructor(
    private readonly create: CreateWithdrawalReportUseCase,
    private readonly get: GetWithdrawalReportUseCase,
    private readonly file: FileWithdrawalReportUseCase,
  ) {}

  @HandleRequest(Topics.WithdrawalsCreateReport)
  createReport(c: CreateWithdrawalReportCommand): Promise<RequestReply<typeof Topics.WithdrawalsCreateReport>> {
    return this.create.execute(c);
  }

  @HandleRequest(Topics.WithdrawalsReport)
  report(q: WithdrawalReportQuery): Promise<RequestReply<typeof Topics.WithdrawalsReport>> {
    return this.get.execute(q);
  }

  @HandleRequest(Topics.WithdrawalsFileReport)
  fileReport(c: FileWithdrawalReportCommand): Promise<RequestReply<typeof Topics.WithdrawalsFileReport>> {
    return this.file.execute(c);
  }
}
