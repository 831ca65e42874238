import { Injectable } from '@nestjs/common';
import { fail, ok, RequestReply, Topics, WithdrawalReportQuery } from '@partner/contracts';
import { toReportPage } from './report-page';
import { WithdrawalReportRepository } from './withdrawal-report.repository';

/** A report and a page of its rows, by withdrawal id. */
@Injectable()
export class GetWithdrawalReportUseCase {
  constructor(private readonly reports: WithdrawalReportRepository) {}

  async execute(q: WithdrawalReportQuery): Promise<RequestReply<typeof Topics.WithdrawalsReport>> {
    const report = await this.reports.find(q.report_id);
    if (!report) return fail('not_found', `no report ${q.report_id}`);
    const rows = await this.reports.rows(report.id, q.after, q.limit + 1);
    const page = rows.slice(0, q.limit);
    return ok(toReportPage(report, page, rows.length > q.limit ? page[page.length - 1].withdrawal_id : null));
  }
}
