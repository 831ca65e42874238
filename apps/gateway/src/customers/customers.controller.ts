import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BUSINESS_CUSTOMER_EXAMPLE, CreateBusinessCustomerRequest, CreateBusinessCustomerResult } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';

@ApiTags('business customers')
@Controller('partner/v1/customers')
@PartnerAuth()
export class CustomersController {
  constructor(private readonly createBusinessCustomer: CreateBusinessCustomerUseCase) {}

  /** Spec 4.2: 201 {id}; 409 already_exists when this partner registered the CNPJ before. */
  @Post('business')
  @HttpCode(201)
  @ApiBody({ type: CreateBusinessCustomerRequest, examples: { customer: { value: BUSINESS_CUSTOMER_EXAMPLE } } })
  @ApiOperation({
    operationId: 'createBusinessCustomer',
    summary: 'Register a business customer',
    description: 'One registration per CNPJ per partner; a business_customer event (state registered) follows in the feed. Only the first wrong field is reported, in the order of the body.',
  })
  @ApiAnswer(201, CreateBusinessCustomerResult, { description: 'Registered', example: { id: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' } })
  @ApiErrors('error', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, 'invalid_cnpj', 'invalid_phone', 'invalid_owner', 'already_exists'])
  async create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreateBusinessCustomerRequest)) body: CreateBusinessCustomerRequest,
  ): Promise<{ id: string }> {
    const { id } = await this.createBusinessCustomer.execute(partner.id, body);
    return { id };
  }
}
