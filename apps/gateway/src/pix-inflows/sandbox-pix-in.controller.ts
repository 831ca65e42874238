import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNotFoundResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { SandboxPixInRequest, SimulatePixInResult } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { SimulatePixInUseCase } from './pix-inflows.use-cases';

/** Sandbox only (SANDBOX=true): an incoming Pix to one of the partner's users, through the simulated network. */
@ApiTags('sandbox')
@Controller('sandbox/v1/pix-in')
@PartnerAuth()
export class SandboxPixInController {
  constructor(private readonly simulatePixIn: SimulatePixInUseCase) {}

  /** 202: the network sent it; the inflow appears in GET /partner/v1/pix-in and the feed shortly after. */
  @Post()
  @HttpCode(202)
  @ApiAcceptedResponse({ description: '{end_to_end_id}' })
  @ApiNotFoundResponse({ description: 'user_not_found' })
  @ApiUnprocessableEntityResponse({ description: 'pix_key_not_registered: method dict without a registered key' })
  simulate(@CurrentPartner() partner: Partner, @Body(new ContractPipe(SandboxPixInRequest)) body: SandboxPixInRequest): Promise<SimulatePixInResult> {
    return this.simulatePixIn.execute(partner.id, body);
  }
}
