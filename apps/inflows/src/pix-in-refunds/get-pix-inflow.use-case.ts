import { Injectable } from '@nestjs/common';
import { fail, GetPixInflowQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { toPixInflow } from '../pix-inflows/pix-in-event';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { toPixInRefundView } from './pix-in-refund-event';
import { PixInRefundRepository } from './pix-in-refund.repository';

/**
 * inflows.query.get.v1 (GET /partner/v1/pix-in/{end_to_end_id}): the inflow as the list shows it, with what its
 * refunds set aside and returned, and each refund; another partner's inflow is not_found, like a missing one.
 * Both are read in one snapshot: a refund settling between two plain reads showed `success` beside an inflow
 * that had not yet counted it returned.
 */
@Injectable()
export class GetPixInflowUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly inflows: PixInflowRepository,
    private readonly refunds: PixInRefundRepository,
  ) {}

  async execute(query: GetPixInflowQuery): Promise<RequestReply<typeof Topics.InflowsGet>> {
    const { inflow, refunds } = await this.unitOfWork.snapshot(async (tx) => ({
      inflow: await this.inflows.find(query.partner_id, query.end_to_end_id, tx),
      refunds: await this.refunds.ofInflow(query.partner_id, query.end_to_end_id, tx),
    }));
    if (!inflow) return fail('not_found', `no pix inflow ${query.end_to_end_id}`, 'end_to_end_id');
    return ok({
      ...toPixInflow(inflow),
      refunded_cents: Number(inflow.refundedCents),
      returned_cents: Number(inflow.returnedCents),
      refunds: refunds.map(toPixInRefundView),
    });
  }
}
