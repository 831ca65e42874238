import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { CreatePartnerUseCase } from './create-partner.use-case';
import { AdminPartnerRequest, AdminPartnerView } from './partners.dto';

/** Operator API: partners. */
@ApiTags('operator')
@Controller('admin/v1/partners')
@OperatorAuth()
export class PartnersController {
  constructor(private readonly createPartner: CreatePartnerUseCase) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createPartner', summary: 'Create a partner', description: 'Without a key: issue one with POST /admin/v1/partners/{partner_id}/api-keys.' })
  @ApiAnswer(201, AdminPartnerView, { description: 'Created' })
  @ApiErrors('error', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS], {
    ...OPERATOR_SAMPLES,
    invalid_request: { when: 'malformed input: name missing or not 1-120 characters, a rate limit outside 1-1,000,000, an unknown field, invalid JSON', message: 'name must be longer than or equal to 1 characters', field: 'name' },
  })
  create(@Body(new ContractPipe(AdminPartnerRequest)) body: AdminPartnerRequest): Promise<AdminPartnerView> {
    return this.createPartner.execute(body);
  }
}
