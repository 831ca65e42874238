import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CreateUsdtWithdrawalRequest, UsdtWithdrawalView, WithdrawalIdParams } from '@partner/contracts';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { GetWithdrawalUseCase } from './get-withdrawal.use-case';

@ApiTags('withdrawals')
@Controller('partner/v1/withdrawals')
@PartnerAuth()
export class WithdrawalsController {
  constructor(
    private readonly createWithdrawal: CreateWithdrawalUseCase,
    private readonly getWithdrawal: GetWithdrawalUseCase,
  ) {}

  /** Spec 4.1: 201 when created, 200 with the same id when the idempotency key was used before. */
  @Post('usdt')
  @ApiCreatedResponse({ description: 'Created: {id}' })
  @ApiOkResponse({ description: 'Idempotency key used before with the same request: the same {id}' })
  @HttpCode(201)
  async create(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(CreateUsdtWithdrawalRequest)) body: CreateUsdtWithdrawalRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ id: number }> {
    const { id, created } = await this.createWithdrawal.execute(partner.id, body);
    void reply.status(created ? 201 : 200);
    return { id };
  }

  /** Beyond the spec: the withdrawal as it is now (state, tx_hash once sent); another partner's is 404 like a missing one. */
  @Get('usdt/:id')
  @ApiOkResponse({ type: UsdtWithdrawalView, description: 'The withdrawal; tx_hash and failure_reason null until known' })
  @ApiNotFoundResponse({ description: '{error: "not_found", message}: this partner has no withdrawal with that id' })
  @ApiBadRequestResponse({ description: '{error: "invalid_request", message, field: "id"}: the id is not a positive integer' })
  get(@CurrentPartner() partner: Partner, @Param(new ContractPipe(WithdrawalIdParams)) params: WithdrawalIdParams): Promise<UsdtWithdrawalView> {
    return this.getWithdrawal.execute(partner.id, params.id);
  }
}
