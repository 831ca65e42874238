import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { BUSINESS_CUSTOMER_EXAMPLE, BusinessCustomerIdParams, BusinessCustomerView, CreateBusinessCustomerRequest } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { GetBusinessCustomerUseCase } from './get-business-customer.use-case';

@ApiTags('business customers')
@Controller('partner/v1/customers')
@PartnerAuth()
export class CustomersController {
  constructor(
    private readonly createBusinessCustomer: CreateBusinessCustomerUseCase,
    private readonly getBusinessCustomer: GetBusinessCustomerUseCase,
  ) {}

  /** Spec 4.2: 201 {id}; 409 already_exists when this partner registered the CNPJ before. */
  @Post('business')
  @HttpCode(201)
  @ApiBody({ type: CreateBusinessCustomerRequest, examples: { customer: { value: BUSINESS_CUSTOMER_EXAMPLE } } })
  @ApiCreatedResponse({ description: 'Registered: {id} (UUID); a business_customer event (state registered) follows in the feed' })
  @ApiBadRequestResponse({ description: '{error, message, field}: invalid_cnpj, invalid_phone, invalid_owner or invalid_request' })
  @ApiConflictResponse({ description: '{error: already_exists, message}: this partner already registered the CNPJ' })
  async create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreateBusinessCustomerRequest)) body: CreateBusinessCustomerRequest,
  ): Promise<{ id: string }> {
    const { id } = await this.createBusinessCustomer.execute(partner.id, body);
    return { id };
  }

  /** Beyond the spec: the registration as the partner sent it, with its id and created_at; another partner's is 404 like a missing one. */
  @Get('business/:id')
  @ApiOkResponse({ type: BusinessCustomerView, description: 'The registered customer: the fields as sent, plus id and created_at' })
  @ApiNotFoundResponse({ description: '{error: "not_found", message}: this partner has no business customer with that id' })
  @ApiBadRequestResponse({ description: '{error: "invalid_request", message, field: "id"}: the id is not a UUID' })
  get(@CurrentPartner() partner: Partner, @Param(new ContractPipe(BusinessCustomerIdParams)) params: BusinessCustomerIdParams): Promise<BusinessCustomerView> {
    return this.getBusinessCustomer.execute(partner.id, params.id);
  }
}
