import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { integerString } from '@partner/contracts';

export const APPROVAL_STATUSES = ['pending_approval', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const APPROVAL_DECISIONS = ['approve', 'reject'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

export const DEFAULT_APPROVALS_PAGE = 50;
export const MAX_APPROVALS_PAGE = 200;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_APPROVALS_PAGE}`;

/** `{id}` of /admin/v1/approvals/{id}. */
export class ApprovalParams {
  @ApiProperty({ format: 'uuid', description: "The approval's id (a credit's 202 answers it; GET /admin/v1/approvals lists every one)" })
  @IsUUID('all', { message: 'id must be a UUID' })
  id!: string;
}

/** Body of POST /admin/v1/approvals/{id}. */
export class ApprovalDecisionRequest {
  @ApiProperty({
    enum: APPROVAL_DECISIONS,
    description:
      'A credit: approve applies it now, reject never. A withdrawal: approve makes it `created` (then paid as any other), reject fails it (`rejected_by_operator`, its hold released)',
  })
  @IsIn(APPROVAL_DECISIONS, { message: `decision must be one of ${APPROVAL_DECISIONS.join(', ')}` })
  decision!: ApprovalDecision;

  @ApiPropertyOptional({
    description: 'Why (kept with the approval)',
    minLength: 1,
    maxLength: 1000,
    example: 'TED 4411 seen on the bank statement',
  })
  @IsOptional()
  @IsString({ message: 'note must be 1-1000 characters' })
  @Length(1, 1000, { message: 'note must be 1-1000 characters' })
  note?: string;
}

/** Query of GET /admin/v1/approvals. */
export class ListApprovalsQuery {
  @ApiPropertyOptional({
    enum: [...APPROVAL_STATUSES, 'pending'],
    description: 'Only approvals in this state (pending_approval, or `pending` for short: what waits for an operator)',
  })
  @IsOptional()
  // `pending` is read as pending_approval: the word an operator types.
  @Transform(({ value }: { value: unknown }) => (value === 'pending' ? 'pending_approval' : value))
  @IsIn(APPROVAL_STATUSES, { message: `status must be one of ${APPROVAL_STATUSES.join(', ')} (or pending)` })
  status?: ApprovalStatus;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'How many, newest first',
    minimum: 1,
    maximum: MAX_APPROVALS_PAGE,
    default: DEFAULT_APPROVALS_PAGE,
  })
  @IsOptional()
  @Transform(integerString)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_APPROVALS_PAGE, { message: LIMIT_MESSAGE })
  limit?: number;
}

/** What an approval is for: an operator credit above its threshold, or a partner's withdrawal above the partner's. */
export const APPROVAL_KINDS = ['usdt_credit', 'usdt_withdrawal'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** A credit or a withdrawal waiting for, or decided by, an operator key (a credit: a second one). */
export class ApprovalView {
  @ApiProperty({ format: 'uuid', example: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' })
  id!: string;

  @ApiProperty({
    enum: APPROVAL_STATUSES,
    description:
      'pending_approval: waiting (a credit: nothing moved yet; a withdrawal: its amount held, in state pending_approval); approved: the credit is applied (once, under its idempotency_key), the withdrawal goes on to be paid; rejected: the credit never will be, the withdrawal failed (rejected_by_operator)',
    example: 'pending_approval',
  })
  status!: ApprovalStatus;

  @ApiProperty({
    enum: APPROVAL_KINDS,
    description: "What is approved: an operator credit of a USDT balance, or a partner's USDT withdrawal above its approval threshold",
  })
  kind!: ApprovalKind;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The withdrawal (usdt_withdrawal); null for a credit', example: null })
  withdrawal_id!: number | null;

  @ApiProperty({ format: 'uuid', example: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' })
  partner_id!: string;

  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  document!: string;

  @ApiProperty({ type: 'integer', description: 'The credit, or the withdrawal (its amount), in USDT micros', example: 25_000_000_000 })
  usdt_micros!: number;

  @ApiProperty({
    description: "The credit's idempotency_key (the approval applies it under this key, so only once), or the partner's of the withdrawal",
    example: 'deposit-7f3a9c',
  })
  idempotency_key!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The credit's reference; null for a withdrawal",
    example: 'TED 2026-11-22 #4411',
  })
  reference!: string | null;

  @ApiProperty({
    description: "The operator key that asked (its name and prefix), or `partner` for a partner's withdrawal",
    example: 'ops (adm_1a2b3c4d)',
  })
  requested_by!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  requested_at!: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'The operator key that decided; null while pending', example: null })
  decided_by!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix seconds; null while pending', example: null })
  decided_at!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: "The decider's note", example: null })
  note!: string | null;
}

/** Answer of GET /admin/v1/approvals. */
export class ListApprovalsResult {
  @ApiProperty({ type: [ApprovalView], description: 'Newest first' })
  approvals!: ApprovalView[];
}

/** Answer of POST /admin/v1/approvals/{id}: the approval as decided, and for an approved credit the balance after it. */
export class DecidedApprovalView extends ApprovalView {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "An approved credit: the user's available USDT micros after it; otherwise null",
    example: 25_000_000_000,
  })
  available_usdt_micros!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'An approved credit: held USDT micros; otherwise null', example: 0 })
  held_usdt_micros!: number | null;
}
