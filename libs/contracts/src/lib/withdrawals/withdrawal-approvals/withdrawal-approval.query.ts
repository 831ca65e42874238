import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

/** An approval's life: waiting for an operator, approved (the withdrawal goes on to be paid), rejected (it failed). */
export const WITHDRAWAL_APPROVAL_STATUSES = ['pending_approval', 'approved', 'rejected'] as const;
export type WithdrawalApprovalStatus = (typeof WITHDRAWAL_APPROVAL_STATUSES)[number];

/** withdrawals.query.approvals.v1: the newest withdrawal approvals, of one status or all (operator API). */
export class ListWithdrawalApprovalsQuery {
  @IsOptional()
  @IsIn(WITHDRAWAL_APPROVAL_STATUSES)
  status?: WithdrawalApprovalStatus;

  @IsInt()
  @Min(1)
  @Max(1000)
  limit!: number;
}

/** withdrawals.query.approval.v1: one withdrawal approval by its id (not_found). */
export class GetWithdrawalApprovalQuery {
  @IsUUID()
  approval_id!: string;
}

/** A withdrawal above its partner's approval threshold, waiting for (or decided by) an operator. */
export interface WithdrawalApproval {
  id: string;
  status: WithdrawalApprovalStatus;
  partner_id: PartnerId;
  withdrawal_id: number;
  document: string;
  usdt_micros: number;
  /** The partner's idempotency key of the withdrawal. */
  idempotency_key: string;
  /** Unix seconds. */
  requested_at: number;
  decided_by: string | null;
  decided_at: number | null;
  note: string | null;
}

export interface WithdrawalApprovalList {
  approvals: WithdrawalApproval[];
}
