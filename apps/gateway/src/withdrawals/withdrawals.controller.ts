import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CreateUsdtWithdrawalRequest } from '@partner/contracts';
import { ApiOkResponse, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';

@ApiTags('withdrawals')
@Controller('partner/v1/withdrawals')
@PartnerAuth()
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
