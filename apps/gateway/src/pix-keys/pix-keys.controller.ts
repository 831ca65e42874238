import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiBodyOptions, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CancelPixKeyClaimRequest,
  ConfirmPixKeyClaimRequest,
  CreatePixKeyRequest,
  DeletePixKeyRequest,
  ListPixKeysRequest,
  ListPixKeysResult,
  PixKeyAnswer,
  PixKeyClaimDecisionResult,
  PixKeyClaimParams,
  PixKeyDocumentParams,
  PixKeyStatusResult,
  PixKeyView,
  requestRefusalsOf,
  Topics,
} from '@partner/contracts';
import { FastifyReply } from 'fastify';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { markReplayed } from '../http/idempotent-replayed';

/** A claim decision sent to DICT is 202; the same decision taken already is 200. */
const HTTP_STATUS_OF_DECISION: Record<PixKeyClaimDecisionResult['status'], number> = { accepted: 202, already_sent: 200 };

/** The documentation of a claim decision's route (docs/api.md, "Claims"): its path, body, answers and refusals. */
function ApiClaimDecision(
  topic: typeof Topics.PixKeysConfirmClaim | typeof Topics.PixKeysCancelClaim,
  body: ApiBodyOptions,
  summary: string,
  description: string,
) {
  return applyDecorators(
    ApiParam({ name: 'document', description: "The user's CPF, 11 digits", example: '52998224725' }),
    ApiParam({ name: 'claim_id', description: "DICT's claim id, as the claim_received event gives it", format: 'uuid' }),
    ApiBody(body),
    ApiOperation({ operationId: topic === Topics.PixKeysConfirmClaim ? 'confirmPixKeyClaim' : 'cancelPixKeyClaim', summary, description }),
    ApiAnswer(202, PixKeyClaimDecisionResult, {
      description: 'Sent to DICT',
      narrow: { status: ['accepted'] },
      example: { status: 'accepted' },
    }),
    ApiAnswer(200, PixKeyClaimDecisionResult, {
      description: 'This decision was taken already',
      narrow: { status: ['already_sent'] },
      example: { status: 'already_sent' },
    }),
    ApiErrors('pix_keys', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, ...requestRefusalsOf(topic)]),
  );
}

/** Spec 4.3/4.4: work started is 202; a deletion already in flight or done is 200. */
const HTTP_STATUS_OF_ANSWER: Record<PixKeyAnswer, number> = { accepted: 202, already_sent: 200, succeeded: 200 };

@ApiTags('pix-keys')
@Controller('partner/v1/pix-key')
@PartnerAuth()
export class PixKeysController {
  constructor(private readonly bus: ForwardingBus) {}

  /** Spec 4.4: 202 {status: accepted}; registration is reported by pix_key events. */
  @Post()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'createPixKey',
    summary: "Register the user's CPF as their Pix key",
    description:
      "Asynchronous: pix_key events report pending, then registered (or failed). Idempotent by idempotency_key. DICT records the holder's name with the key: the name given here, else the user's name on file; with neither, 422 holder_name_missing at once.",
  })
  @ApiAnswer(202, PixKeyStatusResult, {
    description: 'Registration started (also for a replayed idempotency_key: then with Idempotent-Replayed: true)',
    narrow: { status: ['accepted'] },
    replayable: true,
    example: { status: 'accepted' },
  })
  @ApiErrors('pix_keys', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, ...requestRefusalsOf(Topics.PixKeysCreate)])
  async create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreatePixKeyRequest)) body: CreatePixKeyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PixKeyStatusResult> {
    const { status, replayed } = await this.bus.call(Topics.PixKeysCreate, { ...body, partner_id: partner.id });
    markReplayed(reply, replayed);
    return { status };
  }

  /** An extension (docs/api.md: "Lists"): every key the partner asked for, ended ones included, newest first, filtered and paged by cursor. */
  @Get()
  @ApiOperation({
    operationId: 'listPixKeys',
    summary: 'List your Pix keys',
    description:
      'Every key you asked for, ended ones (failed, canceled) included, so a user may appear more than once. Newest first (by creation time, then id). Page with limit (1-1000, default 100) and cursor=<next_cursor>, keeping the same filters; next_cursor is null on the last page. Any other query parameter is refused.',
  })
  @ApiAnswer(200, ListPixKeysResult, { description: 'A page of keys, each as GET /partner/v1/pix-key/{document} answers it' })
  @ApiErrors('pix_keys', [...PARTNER_ERRORS, 'invalid_request', 'invalid_document'])
  list(
    @CurrentPartner() partner: Partner,
    @Query(new ContractPipe(ListPixKeysRequest)) query: ListPixKeysRequest,
  ): Promise<ListPixKeysResult> {
    return this.bus.call(Topics.PixKeysList, { ...query, partner_id: partner.id });
  }

  /** An extension (docs/api.md: "Reading a key"): the user's current key (the active one, else the latest that ended) and its state. */
  @Get(':document')
  @ApiParam({ name: 'document', description: "The user's CPF, 11 digits", example: '52998224725' })
  @ApiOperation({
    operationId: 'getPixKey',
    summary: "Read back a user's Pix key",
    description:
      "The user's current key (the active one, else the latest that ended) and its state. A user who never had a key, or another partner's user, is 404.",
  })
  @ApiAnswer(200, PixKeyView, { description: "The user's current key" })
  @ApiErrors('pix_keys', [...PARTNER_ERRORS, 'invalid_request', 'invalid_document', 'not_found'])
  get(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(PixKeyDocumentParams)) params: PixKeyDocumentParams,
  ): Promise<PixKeyView> {
    return this.bus.call(Topics.PixKeysGet, { partner_id: partner.id, document: params.document });
  }

  /**
   * Spec 4.3: 202 accepted, 200 already_sent, 200 succeeded; deletion is confirmed by a canceled pix_key
   * event. The path names the key, so it is validated before the body (Nest would run both pipes at once,
   * and whichever failed first would answer): a bad CPF is invalid_document even when the body is wrong too.
   */
  @Delete(':document')
  @ApiParam({ name: 'document', description: "The user's CPF, 11 digits", example: '52998224725' })
  @ApiBody({ type: DeletePixKeyRequest })
  @ApiOperation({
    operationId: 'deletePixKey',
    summary: "Delete the user's Pix key",
    description:
      'Asynchronous: pix_key events report deleting, then canceled. The path is checked before the body. Idempotent by idempotency_key.',
  })
  @ApiAnswer(202, PixKeyStatusResult, {
    description: 'Deletion started (Idempotent-Replayed: true when the idempotency_key replays it)',
    narrow: { status: ['accepted'] },
    example: { status: 'accepted' },
    replayable: true,
  })
  @ApiAnswer(200, PixKeyStatusResult, {
    description: 'already_sent: a deletion is in flight; succeeded: the key was already deleted',
    narrow: { status: ['already_sent', 'succeeded'] },
    example: { status: 'already_sent' },
    replayable: true,
  })
  @ApiErrors('pix_keys', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, 'invalid_document', 'not_found', 'idempotency_key_reused'])
  async delete(
    @CurrentPartner() partner: Partner,
    @Param() params: unknown,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PixKeyStatusResult> {
    const { document } = new ContractPipe(PixKeyDocumentParams).transform(params);
    const request = new ContractPipe(DeletePixKeyRequest).transform(body);
    const result = await this.bus.call(Topics.PixKeysDelete, { ...request, document, partner_id: partner.id });
    void reply.status(HTTP_STATUS_OF_ANSWER[result.status]);
    markReplayed(reply, result.replayed);
    return { status: result.status };
  }

  /**
   * docs/api.md, "Claims": the user releases the key to the institution that claims it (DICT's confirmClaim). The
   * path names the user's key and DICT's claim (from the claim_received event); checked before the body.
   */
  @Post(':document/claims/:claim_id/confirm')
  @ApiClaimDecision(
    Topics.PixKeysConfirmClaim,
    { type: ConfirmPixKeyClaimRequest, required: false },
    'Release the key to the institution that claims it',
    'Asynchronous: a pix_key event claim_confirmed reports that DICT took it, with the key then canceled here. Idempotent: the same decision again is 200 already_sent.',
  )
  confirmClaim(
    @CurrentPartner() partner: Partner,
    @Param() params: unknown,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PixKeyClaimDecisionResult> {
    // The body is optional here: a confirmation without one is the user's request.
    const request = () => new ContractPipe(ConfirmPixKeyClaimRequest).transform(body ?? {});
    return this.decideClaim(partner, params, reply, (target) => this.bus.call(Topics.PixKeysConfirmClaim, { ...request(), ...target }));
  }

  /** docs/api.md, "Claims": the user keeps the key here (DICT's cancelClaim); a reason is required. */
  @Post(':document/claims/:claim_id/cancel')
  @ApiClaimDecision(
    Topics.PixKeysCancelClaim,
    { type: CancelPixKeyClaimRequest },
    'Keep the key here: refuse the claim',
    'Asynchronous: a pix_key event claim_canceled reports that DICT took it; the key stays registered. Idempotent: the same decision again is 200 already_sent.',
  )
  cancelClaim(
    @CurrentPartner() partner: Partner,
    @Param() params: unknown,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PixKeyClaimDecisionResult> {
    const request = () => new ContractPipe(CancelPixKeyClaimRequest).transform(body);
    return this.decideClaim(partner, params, reply, (target) => this.bus.call(Topics.PixKeysCancelClaim, { ...request(), ...target }));
  }

  /** A claim decision: the path checked first (then the body, in `send`), the command sent, 202 or 200 as it answers. */
  private async decideClaim(
    partner: Partner,
    params: unknown,
    reply: FastifyReply,
    send: (target: PixKeyClaimParams & { partner_id: Partner['id'] }) => Promise<PixKeyClaimDecisionResult>,
  ): Promise<PixKeyClaimDecisionResult> {
    const target = new ContractPipe(PixKeyClaimParams).transform(params);
    const result = await send({ ...target, partner_id: partner.id });
    void reply.status(HTTP_STATUS_OF_DECISION[result.status]);
    return { status: result.status };
  }
}
