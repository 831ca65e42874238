import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { INGEST_PIX_INFLOW_EXAMPLE, IngestPixInflowCommand, IngestPixInflowResult, Topics } from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { PixSignatureGuard } from './pix-signature.guard';

/**
 * The Pix provider's notifications of incoming Pix (docs/api.md: "Pix provider ingestion"). Not a partner
 * route. v2 names the receiving account and key, as an SPI credit notification does; v1 (by our partner
 * id and the user's CPF) is retired.
 */
@ApiTags('provider')
@ApiSecurity('pix-provider')
@Controller('provider/v2/pix/inflows')
@UseGuards(PixSignatureGuard)
export class PixProviderController {
  constructor(private readonly bus: ForwardingBus) {}

  /** 201 when this notification recorded a user's inflow, 200 when it moved or changed nothing; 422 when the account cannot receive (kept for the operator). */
  @Post()
  @HttpCode(200)
  @ApiBody({ type: IngestPixInflowCommand, examples: { processing: { value: INGEST_PIX_INFLOW_EXAMPLE } } })
  @ApiOperation({
    operationId: 'ingestPixInflow',
    summary: 'Pix provider: notify an incoming Pix at a status, by the receiving account',
    description:
      "For the Pix provider, not partners. Signed with X-Pix-Signature. Names the receiving account (receiver_account: ISPB, branch, number, type) and, for a Pix by key, the key (receiver_key), as an SPI credit notification does. The first notification of an end_to_end_id records the inflow for the account's user (201); when no user has that account, or it is blocked or closed, the Pix is refused (422 account_not_found, 422 account_blocked, 409 account_closed: reject the credit to the payer's bank, SPI reasons AC03, AC06, AC04) and kept for the operator, and its later notifications are answered the same. Later ones move it along the transitions of docs/api.md (200); the same or an earlier status changes nothing. Reaching credited credits the user's BRL balance, once.",
  })
  @ApiAnswer(201, IngestPixInflowResult, { description: "The inflow was recorded at the notified status for the account's user" })
  @ApiAnswer(202, IngestPixInflowResult, {
    description: 'An inflow kept aside before refusals were answered (no user had the account): moved, credited to no one',
  })
  @ApiAnswer(200, IngestPixInflowResult, { description: "The user's inflow moved, or was already at (or past) the notified status" })
  @ApiErrors('pix_provider', [
    'invalid_signature',
    ...JSON_BODY_ERRORS,
    'invalid_transition',
    'end_to_end_id_conflict',
    'account_not_found',
    'account_blocked',
    'account_closed',
    'service_unavailable',
  ])
  async ingest(
    @Body(new ContractPipe(IngestPixInflowCommand)) body: IngestPixInflowCommand,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestPixInflowResult> {
    const result = await this.bus.call(Topics.InflowsIngest, body);
    if (!result.matched) reply.status(202);
    else if (result.created) reply.status(201);
    return result;
  }
}
