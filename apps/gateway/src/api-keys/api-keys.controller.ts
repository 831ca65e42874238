import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { assertNoBody, NO_BODY } from '../http/no-body';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { PartnerParams } from '../partners/partners.dto';
import { AdminApiKeyList, AdminApiKeyView, AdminNewApiKey, ApiKeyParams } from './api-keys.dto';
import { CreateApiKeyUseCase } from './create-api-key.use-case';
import { ListApiKeysUseCase } from './list-api-keys.use-case';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case';

/** Operator API: a partner's API keys. Several may be active at once, so a partner rotates without downtime. */
@ApiTags('operator')
@Controller('admin/v1/partners/:partner_id/api-keys')
@OperatorAuth()
export class ApiKeysController {
  constructor(
    private readonly createApiKey: CreateApiKeyUseCase,
    private readonly listApiKeys: ListApiKeysUseCase,
    private readonly revokeApiKey: RevokeApiKeyUseCase,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Issue an API key to a partner',
    description: "The key is shown this once. The partner's other keys stay active. No body.",
  })
  @ApiBody(NO_BODY)
  @ApiAnswer(201, AdminNewApiKey, { description: 'Issued' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'partner_not_found'], OPERATOR_SAMPLES)
  create(@Param(new ContractPipe(PartnerParams)) params: PartnerParams, @Body() body: unknown): Promise<AdminNewApiKey> {
    assertNoBody(body);
    return this.createApiKey.execute(params.partner_id);
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: "List a partner's API keys",
    description: 'Revoked keys included; never a key or its hash.',
  })
  @ApiAnswer(200, AdminApiKeyList, { description: 'The keys, oldest first' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'partner_not_found'], OPERATOR_SAMPLES)
  list(@Param(new ContractPipe(PartnerParams)) params: PartnerParams): Promise<AdminApiKeyList> {
    return this.listApiKeys.execute(params.partner_id);
  }

  @Delete(':key_id')
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: "Revoke a partner's API key",
    description:
      'It answers 401 on every gateway instance within about a second. Revoking a revoked key answers it again (idempotent). No body.',
  })
  @ApiBody(NO_BODY)
  @ApiAnswer(200, AdminApiKeyView, { description: 'Revoked (now or before): the key with its revoked_at' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'partner_not_found', 'not_found'], OPERATOR_SAMPLES)
  revoke(@Param(new ContractPipe(ApiKeyParams)) params: ApiKeyParams, @Body() body: unknown): Promise<AdminApiKeyView> {
    assertNoBody(body);
    return this.revokeApiKey.execute(params.partner_id, params.key_id);
  }
}
