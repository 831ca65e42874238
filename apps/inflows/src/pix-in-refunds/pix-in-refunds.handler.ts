import { Topics } from '@partner/contracts';
import { answer, requestHandlers } from '@partner/kafka';
import { GetPixInflowUseCase } from './get-pix-inflow.use-case';
import { RefundPixInUseCase } from './refund-pix-in.use-case';

export const PixInRefundsHandler = requestHandlers('PixInRefundsHandler', [
  // POST /partner/v1/pix-in/{end_to_end_id}/refunds.
  answer(Topics.InflowsRefund, RefundPixInUseCase),
  // GET /partner/v1/pix-in/{end_to_end_id}: the inflow with its refunds.
  answer(Topics.InflowsGet, GetPixInflowUseCase),
]);
