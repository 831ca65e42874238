import { Injectable, Logger } from '@nestjs/common';
import { fail, FileWithdrawalReportCommand, ok, RequestReply, Topics } from '@partner/contracts';
import { Rejected, UnitOfWork } from '@partner/db';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { toReportPage } from './report-page';
import { WithdrawalReportRepository } from './withdrawal-report.repository';

/**
 * The operator marks a report filed with the Receita's receipt. In one transaction, the report locked: each of
 * its withdrawals moves settled → reported, once, naming the report, with its `usdt_withdrawal` event; the
 * report keeps the receipt. If any of them is no longer settled (another report was filed with it), nothing
 * moves: invalid_transition, naming them. Filed again with the same receipt: the report as it is.
 */
@Injectable()
export class FileWithdrawalReportUseCase {
  private readonly logger = new Logger('reports');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reports: WithdrawalReportRepository,
  ) {}

  async execute(c: FileWithdrawalReportCommand): Promise<RequestReply<typeof Topics.WithdrawalsFileReport>> {
    const now = new Date(c.asked_at);
    const outcome = await this.unitOfWork
      .run(async (tx) => {
        const report = await this.reports.lock(tx, c.report_id);
        if (!report) return fail('not_found', `no report ${c.report_id}`);
        if (report.filedAt !== null)
          return report.receipt === c.receipt
            ? ok({ report, moved: 0 })
            : fail('invalid_transition', `report ${report.id} was filed already, with receipt ${report.receipt}`);
        const moved = await this.reports.reportWithdrawals(tx, report.id, now);
        if (moved.length !== report.withdrawals) {
          const others = await this.reports.notSettled(tx, report.id);
          const named = others.map((w) => `${w.id} (${w.state}${w.report_id ? ` in report ${w.report_id}` : ''})`).join(', ');
          // Thrown, so the moves already made roll back with it.
          throw new Rejected('invalid_transition', `report ${report.id} holds withdrawals no longer settled: ${named}; make a new report`);
        }
        for (const w of moved) tx.emit(stateChanged(w));
        const filed = await this.reports.markFiled(tx, report.id, c.by, c.receipt, now);
        if (!filed) throw new Error(`report ${report.id} vanished while it was filed`);
        return ok({ report: filed, moved: moved.length });
      })
      .catch((error: unknown) => {
        if (error instanceof Rejected) return fail('invalid_transition', error.message);
        throw error;
      });
    if (!outcome.ok) return outcome;
    if (outcome.data.moved > 0)
      this.logger.log(`${c.by} filed report ${c.report_id} (receipt ${c.receipt}): ${outcome.data.moved} withdrawals reported`);
    return ok(toReportPage(outcome.data.report, [], null));
  }
}
