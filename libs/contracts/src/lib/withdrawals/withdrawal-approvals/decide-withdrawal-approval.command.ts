import { IsIn, IsISO8601, IsOptional, IsString, IsUUID, Length } from 'class-validator';

export const WITHDRAWAL_DECISIONS = ['approve', 'reject'] as const;
export type WithdrawalDecision = (typeof WITHDRAWAL_DECISIONS)[number];

/**
 * withdrawals.command.decide-approval.v1: an operator approves a withdrawal waiting in `pending_approval` (it
 * becomes `created` and is paid as any other) or rejects it (`failed`, `rejected_by_operator`, its hold
 * released). Deciding it again the same way answers it as decided; the other way is invalid_transition.
 */
export class DecideWithdrawalApprovalCommand {
  @IsUUID()
  approval_id!: string;

  @IsIn(WITHDRAWAL_DECISIONS)
  decision!: WithdrawalDecision;

  @IsOptional()
  @IsString()
  @Length(1, 1000)
  note?: string;

  /** The operator key that decides (its name and prefix). */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}
