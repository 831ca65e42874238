import { Module } from '@nestjs/common';
import { ApprovalRepository } from './approval.repository';
import { ApprovalsController } from './approvals.controller';
import { DecideApprovalUseCase } from './decide-approval.use-case';
import { ListApprovalsUseCase } from './list-approvals.use-case';

/** Operator API: dual control of credits above the threshold (the credit route asks, a second key decides here). */
@Module({
  controllers: [ApprovalsController],
  providers: [ApprovalRepository, DecideApprovalUseCase, ListApprovalsUseCase],
  exports: [ApprovalRepository],
})
export class ApprovalsModule {}
