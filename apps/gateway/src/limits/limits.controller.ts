import { Body, Controller, Get, Param, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { LimitsView, PartnerLimitsRequest, UserLimitsRequest } from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { PartnerParams } from '../partners/partners.dto';
import { UserParams } from '../users/users.dto';
import { ManageLimitsUseCase } from './manage-limits.use-case';

/**
 * Operator API: withdrawal limits (docs/operations/limits.md). A partner's apply to each of its users (per
 * withdrawal, any 24 hours, any 30 days) and to all its users together (any 24 hours); a user's own replace
 * the partner's where set. Amounts count the withdrawals' amounts (the network fee aside), failed ones not.
 */
@ApiTags('operator')
@Controller('admin/v1/partners/:partner_id')
@OperatorAuth()
export class LimitsController {
  constructor(private readonly limits: ManageLimitsUseCase) {}

  @Get('limits')
  @ApiOperation({
    operationId: 'getPartnerLimits',
    summary: "Read a partner's withdrawal limits",
    description: 'All null when none were set.',
  })
  @ApiAnswer(200, LimitsView, { description: "The partner's limits" })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'partner_not_found'], OPERATOR_SAMPLES)
  get(@Param(new ContractPipe(PartnerParams)) params: PartnerParams): Promise<LimitsView> {
    return this.limits.partnerLimits(params.partner_id);
  }

  @Put('limits')
  @ApiOperation({
    operationId: 'setPartnerLimits',
    summary: "Set a partner's withdrawal limits",
    description:
      'Replaces them whole: a field left out or null is no limit. They apply to the withdrawals asked for from now on (422 limit_exceeded beyond them); what was asked for in the windows already counts. Concurrent withdrawals never pass a limit together. Audited like every operator call.',
  })
  @ApiAnswer(200, LimitsView, { description: 'The limits now' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'partner_not_found'], OPERATOR_SAMPLES)
  set(
    @Param(new ContractPipe(PartnerParams)) params: PartnerParams,
    @Body(new ContractPipe(PartnerLimitsRequest)) body: PartnerLimitsRequest,
    @Req() request: OperatorRequest,
  ): Promise<LimitsView> {
    return this.limits.setPartnerLimits(params.partner_id, body, operatorName(request));
  }

  @Put('users/:document/limits')
  @ApiOperation({
    operationId: 'setUserLimits',
    summary: "Set one user's own withdrawal limits",
    description:
      "Replaces the user's own limits whole: a field left out or null is the partner's limit for this user. The partner-wide daily total still applies. Audited like every operator call.",
  })
  @ApiAnswer(200, LimitsView, { description: "The user's own limits now" })
  @ApiErrors(
    'operator',
    [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'invalid_document', 'partner_not_found', 'user_not_found'],
    OPERATOR_SAMPLES,
  )
  setUser(
    @Param(new ContractPipe(UserParams)) params: UserParams,
    @Body(new ContractPipe(UserLimitsRequest)) body: UserLimitsRequest,
    @Req() request: OperatorRequest,
  ): Promise<LimitsView> {
    return this.limits.setUserLimits(params.partner_id, params.document, body, operatorName(request));
  }
}
