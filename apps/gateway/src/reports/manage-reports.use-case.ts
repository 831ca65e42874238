import { Injectable } from '@nestjs/common';
import {
  CreateWithdrawalReportRequest,
  FileWithdrawalReportRequest,
  MAX_REPORT_PAGE,
  Topics,
  WithdrawalReportCreated,
  WithdrawalReportPage,
} from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';
import { reportCsv } from './report-csv';

/** The operator's reports of settled withdrawals to the Receita Federal, kept by the withdrawals service. */
@Injectable()
export class ManageReportsUseCase {
  constructor(private readonly bus: MessageBus) {}

  async create(body: CreateWithdrawalReportRequest, by: string): Promise<WithdrawalReportCreated> {
    return unwrap(await this.bus.request(Topics.WithdrawalsCreateReport, { ...body, by, asked_at: new Date().toISOString() }));
  }

  async page(id: string, cursor: number | undefined, limit: number | undefined): Promise<WithdrawalReportPage> {
    return unwrap(await this.bus.request(Topics.WithdrawalsReport, { report_id: id, after: cursor ?? 0, limit: limit ?? MAX_REPORT_PAGE }));
  }

  /** The whole report as CSV: every page of its rows, in turn. */
  async csv(id: string): Promise<string> {
    const rows = [];
    let after = 0;
    for (;;) {
      const page = await this.page(id, after, MAX_REPORT_PAGE);
      rows.push(...page.rows);
      if (page.next_cursor === null) return reportCsv(rows);
      after = page.next_cursor;
    }
  }

  async file(id: string, body: FileWithdrawalReportRequest, by: string): Promise<WithdrawalReportPage> {
    return unwrap(await this.bus.request(Topics.WithdrawalsFileReport, { report_id: id, ...body, by, asked_at: new Date().toISOString() }));
  }
}
