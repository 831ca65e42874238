import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { INGEST_PIX_INFLOW_EXAMPLE, IngestPixInflowCommand, IngestPixInflowResult, Topics } from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { PixSignatureGuard } from './pix-signature.guard';

/** The Pix provider's notifications of incoming Pix (docs/api.md: "Pix provider ingestion"). Not a partner route. */
@ApiTags('provider')
@ApiSecurity('pix-provider')
@Controller('provider/v1/pix/inflows')
@UseGuards(PixSignatureGuard)
export class PixProviderController {
  constructor(private readonly bus: ForwardingBus) {}

  /** 201 when this notification recorded the inflow, 200 when it moved it or changed nothing (a repeat). */
  @Post()
  @HttpCode(200)
  @ApiBody({ type: IngestPixInflowCommand, examples: { processing: { value: INGEST_PIX_INFLOW_EXAMPLE } } })
  @ApiOperation({
    operationId: 'ingestPixInflow',
    summary: 'Pix provider: notify an incoming Pix at a status',
    description:
      'For the Pix provider, not partners. Signed with X-Pix-Signature. The first notification of an end_to_end_id records the inflow (201); later ones move it along the transitions of docs/api.md (200); the same or an earlier status changes nothing (200).',
  })
  @ApiAnswer(201, IngestPixInflowResult, { description: 'The inflow was recorded at the notified status' })
  @ApiAnswer(200, IngestPixInflowResult, { description: 'The inflow moved, or was already at (or past) the notified status' })
  @ApiErrors('pix_provider', [
    'invalid_signature',
    ...JSON_BODY_ERRORS,
    'user_not_found',
    'invalid_transition',
    'end_to_end_id_conflict',
    'service_unavailable',
  ])
  async ingest(
    @Body(new ContractPipe(IngestPixInflowCommand)) body: IngestPixInflowCommand,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestPixInflowResult> {
    const result = await this.bus.call(Topics.InflowsIngest, body);
    if (result.created) reply.status(201);
    return result;
  }
}
