import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OperatorPageRequest } from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { assertNoBody, NO_BODY } from '../http/no-body';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { ChangePartnerStatusUseCase } from './change-partner-status.use-case';
import { CreatePartnerUseCase } from './create-partner.use-case';
import { GetPartnerUseCase } from './get-partner.use-case';
import { ListPartnersUseCase } from './list-partners.use-case';
import { AdminPartnerDetail, AdminPartnerPage, AdminPartnerRequest, AdminPartnerView, PartnerParams } from './partners.dto';

const STATUS_NOTE = 'Idempotent: asking for the status the partner has changes nothing and answers it. Audited like every operator call.';

/** Operator API: partners. */
@ApiTags('operator')
@Controller('admin/v1/partners')
@OperatorAuth()
export class PartnersController {
  constructor(
    private readonly createPartner: CreatePartnerUseCase,
    private readonly listPartners: ListPartnersUseCase,
    private readonly getPartner: GetPartnerUseCase,
    private readonly changeStatus: ChangePartnerStatusUseCase,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createPartner',
    summary: 'Create a partner',
    description: 'Without a key: issue one with POST /admin/v1/partners/{partner_id}/api-keys.',
  })
  @ApiAnswer(201, AdminPartnerView, { description: 'Created' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS], {
    ...OPERATOR_SAMPLES,
    invalid_request: {
      when: 'malformed input: name missing or not 1-120 characters, a rate limit outside 1-1,000,000, an unknown field, invalid JSON',
      message: 'name must be longer than or equal to 1 characters',
      field: 'name',
    },
  })
  create(@Body(new ContractPipe(AdminPartnerRequest)) body: AdminPartnerRequest): Promise<AdminPartnerView> {
    return this.createPartner.execute(body);
  }

  @Get()
  @ApiOperation({ operationId: 'listPartners', summary: 'List partners', description: 'Newest first; page with cursor=<next_cursor>.' })
  @ApiAnswer(200, AdminPartnerPage, { description: 'A page of partners' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  list(@Query(new ContractPipe(OperatorPageRequest)) query: OperatorPageRequest): Promise<AdminPartnerPage> {
    return this.listPartners.execute(query);
  }

  @Get(':partner_id')
  @ApiOperation({
    operationId: 'getPartner',
    summary: 'Read a partner',
    description: 'Its status (active or disabled), its active API keys, its rate limit.',
  })
  @ApiAnswer(200, AdminPartnerDetail, { description: 'The partner' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'partner_not_found'], OPERATOR_SAMPLES)
  get(@Param(new ContractPipe(PartnerParams)) params: PartnerParams): Promise<AdminPartnerDetail> {
    return this.getPartner.execute(params.partner_id);
  }

  @Post(':partner_id/disable')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'disablePartner',
    summary: 'Disable a partner',
    description: `Every API key of the partner is refused with 403 partner_disabled on every gateway instance within about a second; its keys and data are kept. ${STATUS_NOTE}`,
  })
  @ApiBody(NO_BODY)
  @ApiAnswer(200, AdminPartnerDetail, { description: 'The partner, disabled' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'partner_not_found'], OPERATOR_SAMPLES)
  disable(@Param(new ContractPipe(PartnerParams)) params: PartnerParams, @Body() body: unknown): Promise<AdminPartnerDetail> {
    assertNoBody(body);
    return this.changeStatus.execute(params.partner_id, 'disabled');
  }

  @Post(':partner_id/enable')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'enablePartner',
    summary: 'Enable a disabled partner again',
    description: `Its API keys that are not revoked work again, on every instance within about a second. ${STATUS_NOTE}`,
  })
  @ApiBody(NO_BODY)
  @ApiAnswer(200, AdminPartnerDetail, { description: 'The partner, active' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'partner_not_found'], OPERATOR_SAMPLES)
  enable(@Param(new ContractPipe(PartnerParams)) params: PartnerParams, @Body() body: unknown): Promise<AdminPartnerDetail> {
    assertNoBody(body);
    return this.changeStatus.execute(params.partner_id, 'active');
  }
}
