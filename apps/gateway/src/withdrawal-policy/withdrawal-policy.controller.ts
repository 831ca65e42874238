import { Body, Controller, Get, Param, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WithdrawalPolicyRequest, WithdrawalPolicyView } from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { PartnerParams } from '../partners/partners.dto';
import { ManageWithdrawalPolicyUseCase } from './manage-withdrawal-policy.use-case';

/** Operator API: what a partner's withdrawals must carry (docs/operations/destinations.md). */
@ApiTags('operator')
@Controller('admin/v1/partners/:partner_id/withdrawal-policy')
@OperatorAuth()
export class WithdrawalPolicyController {
  constructor(private readonly policy: ManageWithdrawalPolicyUseCase) {}

  @Get()
  @ApiOperation({
    operationId: 'getWithdrawalPolicy',
    summary: "Read a partner's withdrawal policy",
    description: 'The defaults (nothing asked) when never set.',
  })
  @ApiAnswer(200, WithdrawalPolicyView, { description: 'The policy' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'partner_not_found'], OPERATOR_SAMPLES)
  get(@Param(new ContractPipe(PartnerParams)) params: PartnerParams): Promise<WithdrawalPolicyView> {
    return this.policy.get(params.partner_id);
  }

  @Put()
  @ApiOperation({
    operationId: 'setWithdrawalPolicy',
    summary: "Set a partner's withdrawal policy",
    description:
      "Replaced whole (a field left out is its default): beneficiary_required (every withdrawal names the owner of its destination, or goes to a saved address that has one), address_book_only (only to the user's saved addresses), address_cooldown_seconds (how long after it is saved an address can be paid). Applies to the requests that follow. Audited like every operator call.",
  })
  @ApiAnswer(200, WithdrawalPolicyView, { description: 'The policy now' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'partner_not_found'], OPERATOR_SAMPLES)
  set(
    @Param(new ContractPipe(PartnerParams)) params: PartnerParams,
    @Body(new ContractPipe(WithdrawalPolicyRequest)) body: WithdrawalPolicyRequest,
    @Req() request: OperatorRequest,
  ): Promise<WithdrawalPolicyView> {
    return this.policy.set(params.partner_id, body, operatorName(request));
  }
}
