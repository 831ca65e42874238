import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { CreateUsdtWithdrawalRequest } from '@partner/contracts';
import { ApiOkResponse, ApiCreatedResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';

@ApiTags('withdrawals')
@ApiSecurity('partner')
@Controller('partner/v1/withdrawals')
@UseGuards(ApiKeyGuard)
export class WithdrawalsController {
  constructor(private readonly createWithdrawal: CreateWithdrawalUseCase) {}

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
}
