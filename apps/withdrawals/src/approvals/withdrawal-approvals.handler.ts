import { Controller } from '@nestjs/common';
import {
  DecideWithdrawalApprovalCommand,
  fail,
  GetWithdrawalApprovalQuery,
  ListWithdrawalApprovalsQuery,
  ok,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { DecideWithdrawalApprovalUseCase } from './decide-withdrawal-approval.use-case';
import { WithdrawalApprovalRepository } from './withdrawal-approval.repository';

/** The operator's approvals of withdrawals above their partner's threshold: list, read, decide. */
@Controller()
export class WithdrawalApprovalsHandler {
  constructor(
    private readonly approvals: WithdrawalApprovalRepository,
    private readonly decide: DecideWithdrawalApprovalUseCase,
  ) {}

  @HandleRequest(Topics.WithdrawalsApprovals)
  async list(q: ListWithdrawalApprovalsQuery): Promise<RequestReply<typeof Topics.WithdrawalsApprovals>> {
    return ok({ approvals: await this.approvals.page(q.status, q.limit) });
  }

  @HandleRequest(Topics.WithdrawalsApproval)
  async get(q: GetWithdrawalApprovalQuery): Promise<RequestReply<typeof Topics.WithdrawalsApproval>> {
    const found = await this.approvals.find(q.approval_id);
    return found ? ok(found) : fail('not_found', `no approval ${q.approval_id}`);
  }

  @HandleRequest(Topics.WithdrawalsDecideApproval)
  decideOne(c: DecideWithdrawalApprovalCommand): Promise<RequestReply<typeof Topics.WithdrawalsDecideApproval>> {
    return this.decide.execute(c);
  }
}
