import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { CreateWithdrawalReportCommand, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { WithdrawalReportRepository } from './withdrawal-report.repository';

/**
 * The operator makes a report of a period: the withdrawals settled in [from, to) that no filed report holds yet.
 * A period not over yet is refused: a withdrawal settling later in it would be in no report.
 */
@Injectable()
export class CreateWithdrawalReportUseCase {
  private readonly logger = new Logger('reports');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reports: WithdrawalReportRepository,
  ) {}

  async execute(c: CreateWithdrawalReportCommand): Promise<RequestReply<typeof Topics.WithdrawalsCreateReport>> {
    const now = new Date(c.asked_at);
    if (c.to <= c.from) return fail('invalid_request', 'to must be after from', 'to');
    if (c.to * 1000 > now.getTime()) return fail('invalid_request', 'to must not be in the future: the period must be over', 'to');
    const id = randomUUID();
    const from = new Date(c.from * 1000);
    const to = new Date(c.to * 1000);
    const withdrawals = await this.unitOfWork.run((tx) => this.reports.create(tx, { id, from, to, by: c.by, now }));
    this.logger.log(`${c.by} made report ${id} of ${from.toISOString()} to ${to.toISOString()}: ${withdrawals} withdrawals`);
    return ok({ id, withdrawals });
  }
}
