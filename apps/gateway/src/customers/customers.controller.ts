import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BUSINESS_CUSTOMER_EXAMPLE,
  BusinessCustomerIdParams,
  BusinessCustomerView,
  CreateBusinessCustomerRequest,
  CreateBusinessCustomerResult,
  ListBusinessCustomersRequest,
  ListBusinessCustomersResult,
  Topics,
} from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';

@ApiTags('business customers')
@Controller('partner/v1/customers')
@PartnerAuth()
export class CustomersController {
  constructor(private readonly bus: ForwardingBus) {}

  /** Spec 4.2: 201 {id}; 409 already_exists when this partner registered the CNPJ before. */
  @Post('business')
  @HttpCode(201)
  @ApiBody({ type: CreateBusinessCustomerRequest, examples: { customer: { value: BUSINESS_CUSTOMER_EXAMPLE } } })
  @ApiOperation({
    operationId: 'createBusinessCustomer',
    summary: 'Register a business customer',
    description:
      'One registration per CNPJ per partner; a business_customer event (state registered) follows in the feed. Only the first wrong field is reported, in the order of the body.',
  })
  @ApiAnswer(201, CreateBusinessCustomerResult, { description: 'Registered', example: { id: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' } })
  @ApiErrors('business_customers', [
    ...PARTNER_ERRORS,
    ...JSON_BODY_ERRORS,
    'invalid_cnpj',
    'invalid_phone',
    'invalid_owner',
    'already_exists',
  ])
  async create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreateBusinessCustomerRequest)) body: CreateBusinessCustomerRequest,
  ): Promise<{ id: string }> {
    const { id } = await this.bus.call(Topics.CustomersCreateBusiness, { ...body, partner_id: partner.id });
    return { id };
  }

  /** An extension (docs/api.md: "Lists"): the partner's business customers, newest first, filtered and paged by cursor. */
  @Get('business')
  @ApiOperation({
    operationId: 'listBusinessCustomers',
    summary: 'List your business customers',
    description:
      'Newest first (by creation time, then id). Page with limit (1-1000, default 100) and cursor=<next_cursor>, keeping the same filters; next_cursor is null on the last page. Any other query parameter is refused.',
  })
  @ApiAnswer(200, ListBusinessCustomersResult, {
    description: 'A page of customers, each as GET /partner/v1/customers/business/{id} answers it',
  })
  @ApiErrors('business_customers', [...PARTNER_ERRORS, 'invalid_request', 'invalid_cnpj'])
  list(
    @CurrentPartner() partner: Partner,
    @Query(new ContractPipe(ListBusinessCustomersRequest)) query: ListBusinessCustomersRequest,
  ): Promise<ListBusinessCustomersResult> {
    return this.bus.call(Topics.CustomersList, { ...query, partner_id: partner.id });
  }

  /** An extension (docs/api.md: "Reading a customer"): the registration as the partner sent it, with its id and created_at; another partner's is 404 like a missing one. */
  @Get('business/:id')
  @ApiOperation({
    operationId: 'getBusinessCustomer',
    summary: 'Read back a business customer',
    description:
      "The registered customer: the fields as the partner sent them, plus id and created_at. Another partner's customer is 404 like a missing one.",
  })
  @ApiAnswer(200, BusinessCustomerView, { description: 'The registered customer' })
  @ApiErrors('business_customers', [...PARTNER_ERRORS, 'invalid_request', 'not_found'])
  get(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(BusinessCustomerIdParams)) params: BusinessCustomerIdParams,
  ): Promise<BusinessCustomerView> {
    return this.bus.call(Topics.CustomersGet, { partner_id: partner.id, id: params.id });
  }
}
