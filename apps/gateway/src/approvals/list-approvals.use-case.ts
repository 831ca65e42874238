import { Injectable } from '@nestjs/common';
import { ApprovalRepository } from './approval.repository';
import { toApprovalView } from './approval-view';
import { DEFAULT_APPROVALS_PAGE, ListApprovalsQuery, ListApprovalsResult } from './approvals.dto';

/** The newest approvals, of one state or all. */
@Injectable()
export class ListApprovalsUseCase {
  constructor(private readonly approvals: ApprovalRepository) {}

  async execute(query: ListApprovalsQuery): Promise<ListApprovalsResult> {
    const rows = await this.approvals.page(query.status, query.limit ?? DEFAULT_APPROVALS_PAGE);
    return { approvals: rows.map(toApprovalView) };
  }
}
