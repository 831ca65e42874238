import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';

/** withdrawals.query.partner-limits.v1: a partner's limits (all null when none were ever set). */
export class GetPartnerLimitsQuery {
  @IsUUID()
  partner_id!: PartnerId;
}

/** withdrawals.query.user-limits.v1: a user's limits in force and their use now (user_not_found when the partner has no such user). */
export class GetUserLimitsQuery extends GetPartnerLimitsQuery {
  @IsCpf()
  document!: string;
}

/** One limit in force over a window, and its use. */
export class LimitUse {
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'The limit; null: none', example: 5_000_000_000 })
  limit_usdt_micros!: number | null;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'What counts against it now: the amounts of the withdrawals asked for in the window, failed ones aside',
    example: 1_250_000_000,
  })
  used_usdt_micros!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: 'What is left (never below 0); null: no limit',
    example: 3_750_000_000,
  })
  remaining_usdt_micros!: number | null;
}

/** GET /partner/v1/users/{document}/limits: the limits in force for the user (its own, else the partner's) and their use. */
export class UserLimitsView {
  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  document!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: 'The most one withdrawal may be; null: no limit',
    example: 1_000_000_000,
  })
  per_withdrawal_usdt_micros!: number | null;

  @ApiProperty({ type: LimitUse, description: "The user's withdrawals in the last 24 hours" })
  daily!: LimitUse;

  @ApiProperty({ type: LimitUse, description: "The user's withdrawals in the last 30 days" })
  monthly!: LimitUse;

  @ApiProperty({ type: LimitUse, description: "All the partner's users' withdrawals in the last 24 hours" })
  partner_daily!: LimitUse;
}
