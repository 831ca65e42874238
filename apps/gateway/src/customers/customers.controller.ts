import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  BUSINESS_CUSTOMER_EXAMPLE,
  BusinessCustomerIdParams,
  BusinessCustomerView,
  CreateBusinessCustomerRequest,
  CreateBusinessCustomerResult,
  IDEMPOTENCY_KEY_HEADER_PATTERN,
  IDEMPOTENCY_KEY_HEADER_RULE,
  ListBusinessCustomersRequest,
  ListBusinessCustomersResult,
  requestRefusalsOf,
  Topics,
} from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, CREATE_BUSINESS_CUSTOMER_SAMPLES, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { asHeaderRefusal, IDEMPOTENCY_KEY, IdempotencyKeyHeader } from '../http/idempotency-key.header';
import { markReplayed } from '../http/idempotent-replayed';

@ApiTags('business customers')
@Controller('partner/v1/customers')
@PartnerAuth()
export class CustomersController {
  constructor(private readonly bus: ForwardingBus) {}

  /**
   * Spec 4.2: 201 {id}; 409 already_exists (with the customer's id) when this partner registered the CNPJ before.
   * With an Idempotency-Key: 200 with the same id (Idempotent-Replayed) for the same request again, 422 for another.
   */
  @Post('business')
  @HttpCode(201)
  @ApiBody({ type: CreateBusinessCustomerRequest, examples: { customer: { value: BUSINESS_CUSTOMER_EXAMPLE } } })
  @ApiHeader({
    name: IDEMPOTENCY_KEY,
    required: false,
    description: `Optional; ${IDEMPOTENCY_KEY_HEADER_RULE}, scoped to your partner, never expiring. The same request again with the same key answers 200 with the first id (Idempotent-Replayed: true); another request with it, 422 idempotency_key_reused. A refused request binds nothing. A UUID per registration is a good key.`,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_HEADER_PATTERN.source },
  })
  @ApiOperation({
    operationId: 'createBusinessCustomer',
    summary: 'Register a business customer',
    description:
      'One registration per CNPJ per partner; a business_customer event (state registered) follows in the feed. Only the first wrong field is reported, in the order of the body. Idempotent by the optional Idempotency-Key header.',
  })
  @ApiAnswer(201, CreateBusinessCustomerResult, { description: 'Registered', example: { id: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' } })
  @ApiAnswer(200, CreateBusinessCustomerResult, {
    description: 'The Idempotency-Key was used before with the same registration: the same id, nothing new (Idempotent-Replayed: true)',
    example: { id: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' },
    replayable: true,
  })
  @ApiErrors(
    'business_customers',
    // The service's refusals, as the topic's contract lists them.
    [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, ...requestRefusalsOf(Topics.CustomersCreateBusiness)],
    CREATE_BUSINESS_CUSTOMER_SAMPLES,
  )
  async create(
    @CurrentPartner() partner: Partner,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Body(new ContractPipe(CreateBusinessCustomerRequest)) body: CreateBusinessCustomerRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ id: string }> {
    const command = { ...body, partner_id: partner.id, ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }) };
    const { id, replayed } = await this.bus.call(Topics.CustomersCreateBusiness, command).catch((error: unknown) => {
      throw asHeaderRefusal(error);
    });
    void reply.status(replayed ? 200 : 201);
    markReplayed(reply, replayed);
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
