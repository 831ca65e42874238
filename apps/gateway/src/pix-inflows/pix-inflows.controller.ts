import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListPixInflowsRequest, ListPixInflowsResult, Topics } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';

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
}
