import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SandboxPixInRequest, SimulatePixInResult, Topics } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';

/** Sandbox only (SANDBOX=true): an incoming Pix to one of the partner's users, through the simulated network. */
@ApiTags('sandbox')
@Controller('sandbox/v1/pix-in')
@PartnerAuth()
export class SandboxPixInController {
  constructor(private readonly bus: ForwardingBus) {}

  /** 202: the network sent it; the inflow appears in GET /partner/v1/pix-in and the feed shortly after. */
  @Post()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'simulatePixIn',
    summary: 'Sandbox: send a Pix to one of your users',
    description:
      'Only when SANDBOX=true. The inflow shows in the listing and the feed shortly after. With an idempotency_key, a retry of the same request answers the first payment again and sends no other; without one, each call sends a payment.',
  })
  @ApiAnswer(202, SimulatePixInResult, { description: 'Sent by the simulated Pix network' })
  @ApiErrors('pix_inflows', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, 'user_not_found', 'pix_key_not_registered', 'idempotency_key_reused'])
  simulate(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(SandboxPixInRequest)) body: SandboxPixInRequest,
  ): Promise<SimulatePixInResult> {
    // Without the partner's key each call is a payment of its own, and one only: a key of the call's own makes
    // every copy of its command (a producer's retry, a redelivery after a broker restart) that one payment.
    return this.bus.call(Topics.InflowsSimulatePixIn, {
      ...body,
      idempotency_key: body.idempotency_key ?? randomUUID(),
      partner_id: partner.id,
    });
  }
}
