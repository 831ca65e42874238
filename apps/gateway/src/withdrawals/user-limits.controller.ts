import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Topics, UserDocumentParams, UserLimitsView } from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';

/** A user's withdrawal limits in force and their use (docs/api.md: "Limits"). */
@ApiTags('withdrawals')
@Controller('partner/v1/users')
@PartnerAuth()
export class UserLimitsController {
  constructor(private readonly bus: ForwardingBus) {}

  @Get(':document/limits')
  @ApiOperation({
    operationId: 'getUserLimits',
    summary: "Read a user's withdrawal limits and their use",
    description:
      "The limits the operator set for this user (its own, else yours): per withdrawal, any 24 hours, any 30 days, and your users' total of any 24 hours; for each window what counts against it now (the amounts of the withdrawals asked for in it, failed ones aside) and what is left. A withdrawal beyond one is refused with 422 limit_exceeded. An unknown user, or another partner's, is 404 user_not_found.",
  })
  @ApiAnswer(200, UserLimitsView, { description: 'The limits and their use' })
  @ApiErrors('users', [...PARTNER_ERRORS, 'invalid_request', 'user_not_found'])
  limits(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(UserDocumentParams)) params: UserDocumentParams,
  ): Promise<UserLimitsView> {
    return this.bus.call(Topics.WithdrawalsUserLimits, { partner_id: partner.id, document: params.document });
  }
}
