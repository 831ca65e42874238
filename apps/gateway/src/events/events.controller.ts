import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AckEventsRequest, AckEventsResult, ListEventsRequest, ListEventsResult } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { assertNoBody } from '../http/no-body';
import { EventIdParams } from './event-id.dto';
import { AckEventsUseCase, ListEventsUseCase, MarkEventDeliveredUseCase } from './events.use-cases';

@ApiTags('events')
@Controller('partner/v1/events')
@PartnerAuth()
export class EventsController {
  constructor(
    private readonly listEvents: ListEventsUseCase,
    private readonly markDelivered: MarkEventDeliveredUseCase,
    private readonly ackEvents: AckEventsUseCase,
  ) {}

  /** Spec 4.6, plus paging: in per-partner `sequence` order; `delivered=false` is the partner's inbox; resume with `cursor=<next_cursor>`. */
  @Get()
  @ApiBadRequestResponse({ description: 'invalid_request naming the field (delivered, limit, type or cursor)' })
  list(@CurrentPartner() partner: Partner, @Query(new ContractPipe(ListEventsRequest)) query: ListEventsRequest): Promise<ListEventsResult> {
    return this.listEvents.execute(partner.id, query);
  }

  /** Beyond the spec: acknowledge up to 1000 events at once; ids the partner has no event for are listed, not changed. */
  @Post('ack')
  @HttpCode(200)
  @ApiOkResponse({ description: '{acknowledged, not_found}' })
  @ApiBadRequestResponse({ description: 'invalid_request, field ids' })
  ack(@CurrentPartner() partner: Partner, @Body(new ContractPipe(AckEventsRequest)) body: AckEventsRequest): Promise<AckEventsResult> {
    return this.ackEvents.execute(partner.id, body);
  }

  /**
   * Spec 4.7: 200 {} (also when already delivered); 404 when the partner has no such event. No body: none,
   * an empty one or {} (with or without a JSON content type). The id is checked before the body, in
   * that order every time (Nest would run two pipes at once, and whichever failed first would answer).
   */
  @Patch(':id')
  @ApiBody({ required: false, description: 'None. An empty body or {} is accepted; any field is 400 invalid_request', schema: { type: 'object', maxProperties: 0 } })
  @ApiOkResponse({ description: '{}' })
  @ApiBadRequestResponse({ description: 'invalid_request: id not a UUID, or a body with fields' })
  @ApiNotFoundResponse({ description: 'No such event for this partner' })
  mark(@CurrentPartner() partner: Partner, @Param() params: unknown, @Body() body: unknown): Promise<Record<string, never>> {
    const { id } = new ContractPipe(EventIdParams).transform(params);
    assertNoBody(body);
    return this.markDelivered.execute(partner.id, id);
  }
}
