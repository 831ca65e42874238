import { Controller, Get, Param, Patch, Query, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ListEventsRequest, ListEventsResult } from '@partner/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { EventIdParams } from './event-id.dto';
import { ListEventsUseCase, MarkEventDeliveredUseCase } from './events.use-cases';

@ApiTags('events')
@ApiSecurity('partner')
@Controller('partner/v1/events')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(private readonly listEvents: ListEventsUseCase, private readonly markDelivered: MarkEventDeliveredUseCase) {}

  /** Spec 4.6: oldest first; `delivered=false` is the partner's inbox. */
  @Get()
  list(@CurrentPartner() partner: Partner, @Query(new ContractPipe(ListEventsRequest)) query: ListEventsRequest): Promise<ListEventsResult> {
    return this.listEvents.execute(partner.id, query);
  }

  /** Spec 4.7: 200 {} (also when already delivered); 404 when the partner has no such event. */
  @Patch(':id')
  @ApiNotFoundResponse({ description: 'No such event for this partner' })
  mark(@CurrentPartner() partner: Partner, @Param(new ContractPipe(EventIdParams)) params: EventIdParams): Promise<Record<string, never>> {
    return this.markDelivered.execute(partner.id, params.id);
  }
}
