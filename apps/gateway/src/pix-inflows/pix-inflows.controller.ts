import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ListPixInflowsRequest, ListPixInflowsResult } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { ListPixInflowsUseCase } from './pix-inflows.use-cases';

@ApiTags('pix-in')
@Controller('partner/v1/pix-in')
@PartnerAuth()
export class PixInflowsController {
  constructor(private readonly listPixInflows: ListPixInflowsUseCase) {}

  /** Spec 4.5: the partner's inflows, newest first; optional limit/cursor paging and status filter. */
  @Get()
  @ApiOkResponse({ description: '{pix_in: [...]} with the fields of spec 2.4; next_cursor when paging' })
  @ApiBadRequestResponse({ description: '{error: "invalid_request", message, field} for a bad query value' })
  list(@CurrentPartner() partner: Partner, @Query(new ContractPipe(ListPixInflowsRequest)) query: ListPixInflowsRequest): Promise<ListPixInflowsResult> {
    return this.listPixInflows.execute(partner.id, query);
  }
}
