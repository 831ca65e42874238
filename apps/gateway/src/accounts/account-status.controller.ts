import { Body, Controller, Param, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountStatusView, SetAccountStatusRequest } from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { UserParams } from '../users/users.dto';
import { ManageAccountStatusUseCase } from './manage-account-status.use-case';

/** Operator API: a user's payment account blocked, made active again, or closed (docs/operations/pix-and-dict.md). */
@ApiTags('operator')
@Controller('admin/v1/partners/:partner_id/users/:document/account')
@OperatorAuth()
export class AccountStatusController {
  constructor(private readonly accounts: ManageAccountStatusUseCase) {}

  @Put('status')
  @ApiOperation({
    operationId: 'setAccountStatus',
    summary: "Block, unblock or close a user's payment account",
    description:
      'blocked: every new Pix to the account is refused to the Pix provider (422 account_blocked), kept for the operator, until it is active again; closed: refused for good (account_closed), only with a zero BRL balance (422 account_not_empty), and final (409 account_closed). Inflows already recorded go on. The same status again changes nothing. Audited like every operator call.',
  })
  @ApiAnswer(200, AccountStatusView, { description: 'The account now' })
  @ApiErrors(
    'operator',
    [
      ...OPERATOR_ERRORS,
      ...JSON_BODY_ERRORS,
      'invalid_document',
      'partner_not_found',
      'user_not_found',
      'account_closed',
      'account_not_empty',
    ],
    OPERATOR_SAMPLES,
  )
  set(
    @Param(new ContractPipe(UserParams)) params: UserParams,
    @Body(new ContractPipe(SetAccountStatusRequest)) body: SetAccountStatusRequest,
    @Req() request: OperatorRequest,
  ): Promise<AccountStatusView> {
    return this.accounts.execute(params.partner_id, params.document, body, operatorName(request));
  }
}
