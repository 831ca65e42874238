import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Topics, UserBalanceView, UserDocumentParams } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';

/** The partner's view of a user's USDT balance: the operator API's balance (withdrawals.query.get-balance.v1) with the CPF it is of. */
@ApiTags('withdrawals')
@Controller('partner/v1/users')
@PartnerAuth()
export class UserBalanceController {
  constructor(private readonly bus: ForwardingBus) {}

  /** An extension (docs/api.md: "A user's balance"): another partner's user is 404 user_not_found like an unknown one. */
  @Get(':document/balance')
  @ApiOperation({
    operationId: 'getPartnerUserBalance',
    summary: "Read a user's USDT balance",
    description:
      "Available to withdraw, and held by withdrawals not final yet (created or sent). An unknown user, or another partner's, is 404 user_not_found.",
  })
  @ApiAnswer(200, UserBalanceView, {
    description: 'The balance',
    example: { document: '52998224725', available_usdt_micros: 8_950_000, held_usdt_micros: 1_050_000 },
  })
  @ApiErrors('users', [...PARTNER_ERRORS, 'invalid_request', 'user_not_found'])
  async balance(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(UserDocumentParams)) params: UserDocumentParams,
  ): Promise<UserBalanceView> {
    const { available_usdt_micros, held_usdt_micros } = await this.bus.call(Topics.WithdrawalsGetBalance, {
      partner_id: partner.id,
      document: params.document,
    });
    return { document: params.document, available_usdt_micros, held_usdt_micros };
  }
}
