import { Injectable } from '@nestjs/common';
import { Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';
import { ApprovalRepository } from './approval.repository';
import { toApprovalView, toWithdrawalApprovalView } from './approval-view';
import { DEFAULT_APPROVALS_PAGE, ListApprovalsQuery, ListApprovalsResult } from './approvals.dto';

/**
 * The newest approvals, of one state or all: the credits' (this gateway's) and the withdrawals' (the
 * withdrawals service's), merged newest first.
 */
@Injectable()
export class ListApprovalsUseCase {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(query: ListApprovalsQuery): Promise<ListApprovalsResult> {
    const limit = query.limit ?? DEFAULT_APPROVALS_PAGE;
    const [credits, withdrawals] = await Promise.all([
      this.approvals.page(query.status, limit),
      this.bus.request(Topics.WithdrawalsApprovals, { limit, ...(query.status ? { status: query.status } : {}) }).then(unwrap),
    ]);
    const all = [...credits.map(toApprovalView), ...withdrawals.approvals.map(toWithdrawalApprovalView)];
    all.sort((a, b) => b.requested_at - a.requested_at || (a.id < b.id ? 1 : -1));
    return { approvals: all.slice(0, limit) };
  }
}
