import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  ListPixInflowsRequest,
  ListPixInflowsResult,
  PixInflowDetail,
  PixInflowParams,
  RefundPixInRequest,
  RefundPixInResponse,
  Topics,
} from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS, REFUND_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { markReplayed } from '../http/idempotent-replayed';

@ApiTags('pix-in')
@Controller('partner/v1/pix-in')
@PartnerAuth()
export class PixInflowsController {
  constructor(private readonly bus: ForwardingBus) {}

  /** Spec 4.5: the partner's inflows, newest first; optional limit/cursor paging and status filter. */
  @Get()
  @ApiOperation({
    operationId: 'listPixInflows',
    summary: 'List your Pix inflows',
    description: 'Newest first. Without limit and cursor, the original answer {pix_in} (at most 1000); with them, pages and next_cursor.',
  })
  @ApiAnswer(200, ListPixInflowsResult, { description: 'The inflows, each with every Pix-in field' })
  @ApiErrors('pix_inflows', [...PARTNER_ERRORS, 'invalid_request'])
  list(
    @CurrentPartner() partner: Partner,
    @Query(new ContractPipe(ListPixInflowsRequest)) query: ListPixInflowsRequest,
  ): Promise<ListPixInflowsResult> {
    return this.bus.call(Topics.InflowsList, { ...query, partner_id: partner.id });
  }

  /** An extension (docs/api.md: "Refunds"): the inflow as the list shows it, with what was refunded of it and each refund. */
  @Get(':end_to_end_id')
  @ApiOperation({
    operationId: 'getPixInflow',
    summary: 'Read back a Pix inflow, with its refunds',
    description:
      "The inflow's list fields, then refunded_cents, returned_cents and its refunds (oldest first). Another partner's inflow is 404 like a missing one.",
  })
  @ApiAnswer(200, PixInflowDetail, { description: 'The inflow and its refunds' })
  @ApiErrors('pix_inflows', [...PARTNER_ERRORS, 'invalid_request', 'not_found'], REFUND_SAMPLES)
  get(@CurrentPartner() partner: Partner, @Param(new ContractPipe(PixInflowParams)) params: PixInflowParams): Promise<PixInflowDetail> {
    return this.bus.call(Topics.InflowsGet, { partner_id: partner.id, end_to_end_id: params.end_to_end_id });
  }

  /** An extension (docs/api.md: "Refunds"): 201 when created, 200 with the same refund when the idempotency key was used before. */
  @Post(':end_to_end_id/refunds')
  @ApiOperation({
    operationId: 'refundPixInflow',
    summary: 'Refund (part of) a Pix inflow to its payer',
    description:
      "Debits amount_cents from the user's BRL balance at once and returns it to the payer by a devolução through the Pix provider; pix_in_refund events report created, processing, success (or failed: the amount credited back). Partial refunds add up to at most the inflow's amount, within 90 days of it. Idempotent by idempotency_key.",
  })
  @ApiAnswer(201, RefundPixInResponse, { description: 'Created', example: { id: 7, status: 'created' } })
  @ApiAnswer(200, RefundPixInResponse, {
    description:
      'The idempotency key was used before with the same request: that refund as it is now, nothing new (Idempotent-Replayed: true)',
    example: { id: 7, status: 'processing' },
    replayable: true,
  })
  @ApiErrors(
    'pix_inflows',
    [
      ...PARTNER_ERRORS,
      ...JSON_BODY_ERRORS,
      'invalid_amount',
      'not_found',
      'idempotency_key_reused',
      'pix_in_not_refundable',
      'refund_exceeds_amount',
      'refund_window_closed',
      'insufficient_funds',
      'not_implemented',
    ],
    REFUND_SAMPLES,
  )
  @HttpCode(201)
  async refund(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(PixInflowParams)) params: PixInflowParams,
    @Body(new ContractPipe(RefundPixInRequest)) body: RefundPixInRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RefundPixInResponse> {
    const { id, status, created } = await this.bus.call(Topics.InflowsRefund, { ...body, ...params, partner_id: partner.id });
    void reply.status(created ? 201 : 200);
    markReplayed(reply, !created);
    return { id, status };
  }
}
