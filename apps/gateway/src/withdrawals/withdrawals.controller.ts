import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  CreateUsdtWithdrawalRequest,
  CreateUsdtWithdrawalResponse,
  ListWithdrawalsRequest,
  ListWithdrawalsResult,
  Topics,
  UsdtWithdrawalView,
  WithdrawalIdParams,
} from '@partner/contracts';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { markReplayed } from '../http/idempotent-replayed';

@ApiTags('withdrawals')
@Controller('partner/v1/withdrawals')
@PartnerAuth()
export class WithdrawalsController {
  constructor(private readonly bus: ForwardingBus) {}

  /** Spec 4.1: 201 when created, 200 with the same id when the idempotency key was used before. */
  @Post('usdt')
  @ApiOperation({
    operationId: 'createUsdtWithdrawal',
    summary: 'Withdraw USDT to an EVM address',
    description:
      "Screens the destination (OFAC SDN list, the token contract's blacklist, the operator's deny list: 422 address_blocked), holds amount + network fee, then sends on chain; usdt_withdrawal events report created, sent, settled (or failed). Idempotent by idempotency_key.",
  })
  @ApiAnswer(201, CreateUsdtWithdrawalResponse, { description: 'Created', example: { id: 1 } })
  @ApiAnswer(200, CreateUsdtWithdrawalResponse, {
    description: 'The idempotency key was used before with the same request: the same id, nothing new (Idempotent-Replayed: true)',
    example: { id: 1 },
    replayable: true,
  })
  @ApiErrors('withdrawals', [
    ...PARTNER_ERRORS,
    ...JSON_BODY_ERRORS,
    'invalid_address',
    'user_not_found',
    'invalid_amount',
    'invalid_fee',
    'insufficient_funds',
    'idempotency_key_reused',
    'address_blocked',
    'limit_exceeded',
    'beneficiary_required',
    'address_not_saved',
    'address_cooling_down',
  ])
  @HttpCode(201)
  async create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreateUsdtWithdrawalRequest)) body: CreateUsdtWithdrawalRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ id: number }> {
    const { id, created } = await this.bus.call(Topics.WithdrawalsCreate, { ...body, partner_id: partner.id });
    void reply.status(created ? 201 : 200);
    markReplayed(reply, !created);
    return { id };
  }

  /** An extension (docs/api.md: "Lists"): the partner's withdrawals, newest first, filtered and paged by cursor. */
  @Get('usdt')
  @ApiOperation({
    operationId: 'listUsdtWithdrawals',
    summary: 'List your USDT withdrawals',
    description:
      'Newest first (by creation time, then id). Page with limit (1-1000, default 100) and cursor=<next_cursor>, keeping the same filters; next_cursor is null on the last page. Any other query parameter is refused. created_from is inclusive, created_to exclusive.',
  })
  @ApiAnswer(200, ListWithdrawalsResult, { description: 'A page of withdrawals, each as GET /partner/v1/withdrawals/usdt/{id} answers it' })
  @ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_request'])
  list(
    @CurrentPartner() partner: Partner,
    @Query(new ContractPipe(ListWithdrawalsRequest)) query: ListWithdrawalsRequest,
  ): Promise<ListWithdrawalsResult> {
    return this.bus.call(Topics.WithdrawalsList, { ...query, partner_id: partner.id });
  }

  /** An extension (docs/api.md: "Reading a withdrawal"): the withdrawal as it is now (state, tx_hash once sent); another partner's is 404 like a missing one. */
  @Get('usdt/:id')
  @ApiOperation({
    operationId: 'getUsdtWithdrawal',
    summary: 'Read back a USDT withdrawal',
    description:
      "The withdrawal as it is now: state, and tx_hash / failure_reason once known (null until then). Another partner's withdrawal is 404 like a missing one.",
  })
  @ApiAnswer(200, UsdtWithdrawalView, { description: 'The withdrawal' })
  @ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_request', 'not_found'])
  get(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(WithdrawalIdParams)) params: WithdrawalIdParams,
  ): Promise<UsdtWithdrawalView> {
    return this.bus.call(Topics.WithdrawalsGet, { partner_id: partner.id, id: params.id });
  }
}
