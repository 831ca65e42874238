import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { UserBalanceView, UserDocumentParams } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { readUserBalances } from '../users/user-balances';

/**
 * The partner's view of a user's balances: the operator API's (USDT from withdrawals.query.get-balance.v1, BRL from
 * inflows.query.get-balance.v1) with the CPF they are of.
 */
@ApiTags('withdrawals')
@Controller('partner/v1/users')
@PartnerAuth()
export class UserBalanceController {
  constructor(private readonly bus: MessageBus) {}

  /** An extension (docs/api.md: "A user's balance"): another partner's user is 404 user_not_found like an unknown one. */
  @Get(':document/balance')
  @ApiOperation({
    operationId: 'getPartnerUserBalance',
    summary: "Read a user's balances (USDT and BRL)",
    description:
      "USDT available to withdraw, and held by withdrawals not final yet (created or sent); BRL in the user's payment account: the Pix inflows credited to it. An unknown user, or another partner's, is 404 user_not_found.",
  })
  @ApiAnswer(200, UserBalanceView, {
    description: 'The balances',
    example: {
      document: '52998224725',
      available_usdt_micros: 8_950_000,
      held_usdt_micros: 1_050_000,
      available_brl_cents: 25_000,
      blocked_brl_cents: 0,
    },
  })
  @ApiErrors('users', [...PARTNER_ERRORS, 'invalid_request', 'user_not_found'])
  async balance(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(UserDocumentParams)) params: UserDocumentParams,
  ): Promise<UserBalanceView> {
    const balances = await readUserBalances(this.bus, partner.id, params.document);
    return { document: params.document, ...balances };
  }
}
