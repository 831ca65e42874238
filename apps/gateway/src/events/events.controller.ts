import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AckEventsRequest, AckEventsResult, LIST_EVENTS_EXAMPLE, ListEventsRequest, ListEventsResult, Topics } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { assertNoBody } from '../http/no-body';
import { EventIdParams } from './event-id.dto';

@ApiTags('events')
@Controller('partner/v1/events')
@PartnerAuth()
export class EventsController {
  constructor(private readonly bus: ForwardingBus) {}

  /** Spec 4.6, plus paging: in per-partner `sequence` order; `delivered=false` is the partner's inbox; resume with `cursor=<next_cursor>`. */
  @Get()
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List the events of your feed',
    description:
      'In sequence order. Poll delivered=false and acknowledge, or page with cursor=<next_cursor>. Any other query parameter is refused.',
  })
  @ApiAnswer(200, ListEventsResult, {
    description: 'The events (each with the data of its type) and the cursor to resume after them',
    example: LIST_EVENTS_EXAMPLE,
  })
  @ApiErrors('events', [...PARTNER_ERRORS, 'invalid_request'])
  list(
    @CurrentPartner() partner: Partner,
    @Query(new ContractPipe(ListEventsRequest)) query: ListEventsRequest,
  ): Promise<ListEventsResult> {
    return this.bus.call(Topics.EventsList, { ...query, partner_id: partner.id });
  }

  /** An extension (docs/api.md: "Events feed"): acknowledge up to 1000 events at once; ids the partner has no event for are listed, not changed. */
  @Post('ack')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'ackEvents',
    summary: 'Acknowledge many events at once',
    description: 'An extension: 1 to 1000 event ids, marked delivered in one statement.',
  })
  @ApiAnswer(200, AckEventsResult, {
    description: 'How many are yours (now delivered), and the ids you have no event for',
    example: { acknowledged: 1, not_found: [] },
  })
  @ApiErrors('events', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS])
  ack(@CurrentPartner() partner: Partner, @Body(new ContractPipe(AckEventsRequest)) body: AckEventsRequest): Promise<AckEventsResult> {
    return this.bus.call(Topics.EventsAck, { ids: body.ids, partner_id: partner.id });
  }

  /**
   * Spec 4.7: 200 {} (also when already delivered); 404 when the partner has no such event. No body: none,
   * an empty one or {} (with or without a JSON content type). The id is checked before the body, in
   * that order every time (Nest would run two pipes at once, and whichever failed first would answer).
   */
  @Patch(':id')
  @ApiOperation({
    operationId: 'markEventDelivered',
    summary: 'Acknowledge one event',
    description:
      'Also 200 when it was delivered already (the first delivery time is kept). No body: none, an empty one or {} (with or without a JSON content type).',
  })
  @ApiParam({ name: 'id', description: 'The event id', schema: { type: 'string', format: 'uuid' } })
  @ApiBody({
    required: false,
    description: 'None. An empty body or {} is accepted; any field is 400 invalid_request',
    schema: { type: 'object', maxProperties: 0 },
  })
  @ApiOkResponse({ description: 'Marked delivered: always an empty object', schema: { type: 'object', maxProperties: 0, example: {} } })
  @ApiErrors('events', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, 'not_found'])
  mark(@CurrentPartner() partner: Partner, @Param() params: unknown, @Body() body: unknown): Promise<Record<string, never>> {
    const { id } = new ContractPipe(EventIdParams).transform(params);
    assertNoBody(body);
    return this.bus.call(Topics.EventsMarkDelivered, { partner_id: partner.id, event_id: id });
  }
}
