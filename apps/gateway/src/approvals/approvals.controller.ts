import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { actorOf } from '../operators/operator-name';
import { Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';
import { ApprovalRepository } from './approval.repository';
import { toApprovalView, toWithdrawalApprovalView } from './approval-view';
import {
  ApprovalDecisionRequest,
  ApprovalParams,
  ApprovalView,
  DecidedApprovalView,
  ListApprovalsQuery,
  ListApprovalsResult,
} from './approvals.dto';
import { DecideApprovalUseCase } from './decide-approval.use-case';
import { ListApprovalsUseCase } from './list-approvals.use-case';

/** A decision's refusals, as the operator reads them. */
const DECISION_SAMPLES = {
  ...OPERATOR_SAMPLES,
  not_found: { when: 'no approval with the id of the path', message: 'no approval 5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' },
  invalid_transition: {
    when: 'the approval was decided the other way already (a rejected credit cannot be approved, nor an approved one rejected)',
    message: 'approval 5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41 is rejected: it cannot be approved now',
  },
};

/** Operator API: dual control. A credit above the threshold waits here for a second operator key. */
@ApiTags('operator')
@Controller('admin/v1/approvals')
@OperatorAuth()
export class ApprovalsController {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly list: ListApprovalsUseCase,
    private readonly decide: DecideApprovalUseCase,
    private readonly bus: MessageBus,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listApprovals',
    summary: 'List approvals',
    description:
      "Credits above CREDIT_APPROVAL_THRESHOLD_USDT_MICROS and partners' withdrawals above their approval threshold (kind), newest first; status=pending_approval lists what waits for an operator.",
  })
  @ApiAnswer(200, ListApprovalsResult, { description: 'The newest approvals' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  index(@Query(new ContractPipe(ListApprovalsQuery)) query: ListApprovalsQuery): Promise<ListApprovalsResult> {
    return this.list.execute(query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getApproval', summary: 'Read an approval', description: 'Who asked for it, who decided it, and how.' })
  @ApiAnswer(200, ApprovalView, { description: 'The approval' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'not_found'], DECISION_SAMPLES)
  async get(@Param(new ContractPipe(ApprovalParams)) params: ApprovalParams): Promise<ApprovalView> {
    const found = await this.approvals.findById(params.id);
    if (found) return toApprovalView(found);
    return toWithdrawalApprovalView(unwrap(await this.bus.request(Topics.WithdrawalsApproval, { approval_id: params.id })));
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'decideApproval',
    summary: 'Approve or reject a credit or a withdrawal',
    description:
      "A withdrawal (kind usdt_withdrawal): approve makes it `created` and it is paid as any other; reject fails it (failure_reason rejected_by_operator), its hold released; either reported in the partner's feed. A withdrawal that failed meanwhile (its destination screened out) is 409 invalid_transition. A credit: by a second operator key, never the one that asked (403 same_operator). approve applies the credit now, once: under the credit's own idempotency_key, so the same approval again (a retry, a second approver) credits nothing more and answers the balance. reject: the credit is never applied. A decided approval cannot be decided the other way (409 invalid_transition). Audited like every operator call; the approval keeps both keys and their addresses, the ledger line names both keys.",
  })
  @ApiAnswer(200, DecidedApprovalView, { description: 'The approval as decided; approved: the balance after the credit' })
  @ApiErrors(
    'operator',
    [
      ...OPERATOR_ERRORS,
      ...JSON_BODY_ERRORS,
      'not_found',
      'same_operator',
      'invalid_transition',
      'user_not_found',
      'idempotency_key_reused',
      'invalid_amount',
    ],
    DECISION_SAMPLES,
  )
  decideOne(
    @Param(new ContractPipe(ApprovalParams)) params: ApprovalParams,
    @Body(new ContractPipe(ApprovalDecisionRequest)) body: ApprovalDecisionRequest,
    @Req() request: OperatorRequest,
  ): Promise<DecidedApprovalView> {
    return this.decide.execute(params.id, body.decision, body.note, actorOf(request));
  }
}
