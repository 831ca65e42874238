import { ApiProperty } from '../../api-documentation';
import { IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateIf } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';

const limitMessage = (field: string) => `${field} must be null or an integer number of micros from 0 to ${Number.MAX_SAFE_INTEGER}`;

/** A limit: null (or absent) for none; 0 allows nothing. */
function Limit(field: string, description: string): PropertyDecorator {
  return (target, property) => {
    ApiProperty({ type: 'integer', format: 'int64', nullable: true, required: false, minimum: 0, description })(target, property);
    IsOptional()(target, property);
    ValidateIf((_, v) => v !== null)(target, property);
    IsInt({ message: limitMessage(field) })(target, property);
    Min(0, { message: limitMessage(field) })(target, property);
    Max(Number.MAX_SAFE_INTEGER, { message: limitMessage(field) })(target, property);
  };
}

/** The limits every user of a partner has (a user's own, where set, take their place). */
export class UserLimitsFields {
  @Limit('per_withdrawal_usdt_micros', 'The most one withdrawal may be (its amount, the network fee aside); null: no limit')
  per_withdrawal_usdt_micros?: number | null;

  @Limit('daily_usdt_micros', "The most a user's withdrawals may add up to in any 24 hours (rolling); null: no limit")
  daily_usdt_micros?: number | null;

  @Limit('monthly_usdt_micros', "The most a user's withdrawals may add up to in any 30 days (rolling); null: no limit")
  monthly_usdt_micros?: number | null;
}

/**
 * The body of PUT /admin/v1/partners/{partner_id}/limits: the partner's limits, replaced whole (a field left
 * out is null: no limit). Amounts are the withdrawals' amounts (the network fee aside), failed ones not counted.
 */
export class PartnerLimitsRequest extends UserLimitsFields {
  @Limit(
    'partner_daily_usdt_micros',
    "The most all the partner's users' withdrawals may add up to in any 24 hours (rolling); null: no limit",
  )
  partner_daily_usdt_micros?: number | null;

  @Limit(
    'approval_threshold_usdt_micros',
    "A withdrawal of more than this waits in pending_approval for an operator's decision (docs/operations/approvals.md); null: none",
  )
  approval_threshold_usdt_micros?: number | null;
}

/**
 * The body of PUT /admin/v1/partners/{partner_id}/users/{document}/limits: one user's own limits, replaced
 * whole. A field null or left out: the partner's limit applies to this user.
 */
export class UserLimitsRequest extends UserLimitsFields {}

/**
 * withdrawals.command.set-limits.v1: the operator sets a partner's limits (no `document`) or one user's own.
 * A user's are refused (user_not_found) when the partner has no such user.
 */
export class SetLimitsCommand extends PartnerLimitsRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsOptional()
  @IsCpf()
  document?: string;

  /** The operator key that asked (its name and prefix), kept with the limits. */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** A partner's limits (or one user's own, with its CPF), as the operator API shows them. */
export class LimitsView {
  @ApiProperty({ format: 'uuid' })
  partner_id!: string;

  @ApiProperty({ type: String, nullable: true, description: "The user's CPF for a user's own limits; null for the partner's" })
  document!: string | null;

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true })
  per_withdrawal_usdt_micros!: number | null;

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true })
  daily_usdt_micros!: number | null;

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true })
  monthly_usdt_micros!: number | null;

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: "The partner's own total (null in a user's limits)" })
  partner_daily_usdt_micros!: number | null;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: "The partner's approval threshold (null in a user's limits)",
  })
  approval_threshold_usdt_micros!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'When they were last set (Unix seconds); null: never set' })
  updated_at!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The operator key that set them' })
  updated_by!: string | null;
}
