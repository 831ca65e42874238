import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreatePixKeyRequest, DeletePixKeyRequest, PixKeyAnswer, PixKeyDocumentParams, PixKeyStatusResult, PixKeyView } from '@partner/contracts';
import { FastifyReply } from 'fastify';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreatePixKeyUseCase, DeletePixKeyUseCase, GetPixKeyUseCase } from './pix-keys.use-cases';

/** Spec 4.3/4.4: work started is 202; a deletion already in flight or done is 200. */
const HTTP_STATUS_OF_ANSWER: Record<PixKeyAnswer, number> = { accepted: 202, already_sent: 200, succeeded: 200 };

@ApiTags('pix-keys')
@Controller('partner/v1/pix-key')
@PartnerAuth()
export class PixKeysController {
  constructor(
    private readonly createPixKey: CreatePixKeyUseCase,
    private readonly deletePixKey: DeletePixKeyUseCase,
    private readonly getPixKey: GetPixKeyUseCase,
  ) {}

  /** Spec 4.4: 202 {status: accepted}; registration is reported by pix_key events. */
  @Post()
  @HttpCode(202)
  @ApiAcceptedResponse({ description: '{status: "accepted"}: registration started (also for a replayed idempotency_key)' })
  create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreatePixKeyRequest)) body: CreatePixKeyRequest,
  ): Promise<PixKeyStatusResult> {
    return this.createPixKey.execute(partner.id, body);
  }

  /** Beyond the spec: the user's current key (the active one, else the latest that ended) and its state. */
  @Get(':document')
  @ApiParam({ name: 'document', description: "The user's CPF, 11 digits", example: '52998224725' })
  @ApiOkResponse({ type: PixKeyView, description: "The user's current key: the active one, else the latest that ended" })
  @ApiNotFoundResponse({ description: '{status: "not_found", message}: the user never had a key, or is not this partner\'s' })
  @ApiBadRequestResponse({ description: '{status: "invalid_document", message, field: "document"}: the path is not a valid CPF' })
  get(@CurrentPartner() partner: Partner, @Param(new ContractPipe(PixKeyDocumentParams)) params: PixKeyDocumentParams): Promise<PixKeyView> {
    return this.getPixKey.execute(partner.id, params.document);
  }

  /**
   * Spec 4.3: 202 accepted, 200 already_sent, 200 succeeded; deletion is confirmed by a canceled pix_key
   * event. The path names the key, so it is validated before the body (Nest would run both pipes at once,
   * and whichever failed first would answer): a bad CPF is invalid_document even when the body is wrong too.
   */
  @Delete(':document')
  @ApiParam({ name: 'document', description: "The user's CPF, 11 digits", example: '52998224725' })
  @ApiBody({ type: DeletePixKeyRequest })
  @ApiAcceptedResponse({ description: '{status: "accepted"}: deletion started' })
  @ApiOkResponse({ description: '{status: "already_sent"}: a deletion is in flight; {status: "succeeded"}: the key was already deleted' })
  async delete(
    @CurrentPartner() partner: Partner,
    @Param() params: unknown,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PixKeyStatusResult> {
    const { document } = new ContractPipe(PixKeyDocumentParams).transform(params);
    const request = new ContractPipe(DeletePixKeyRequest).transform(body);
    const result = await this.deletePixKey.execute(partner.id, document, request);
    void reply.status(HTTP_STATUS_OF_ANSWER[result.status]);
    return { status: result.status };
  }
}
