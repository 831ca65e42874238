import { ApiProperty } from '../../api-documentation';
import { IsBoolean, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * The body of PUT /admin/v1/partners/{partner_id}/withdrawal-policy: what a partner's withdrawals must carry
 * (replaced whole; a field left out is its default).
 */
export class WithdrawalPolicyRequest {
  @ApiProperty({
    required: false,
    default: false,
    description: 'Every withdrawal must name its beneficiary (or go to a saved address that has one): 422 beneficiary_required otherwise',
  })
  @IsOptional()
  @IsBoolean({ message: 'beneficiary_required must be true or false' })
  beneficiary_required?: boolean;

  @ApiProperty({
    required: false,
    default: false,
    description: "Withdrawals only to the user's saved addresses (address book): 422 address_not_saved otherwise",
  })
  @IsOptional()
  @IsBoolean({ message: 'address_book_only must be true or false' })
  address_book_only?: boolean;

  @ApiProperty({
    type: 'integer',
    required: false,
    default: 0,
    minimum: 0,
    maximum: 2_592_000,
    description:
      'With address_book_only: seconds after an address is saved before it can be paid (422 address_cooling_down until then); 0: at once',
  })
  @IsOptional()
  @IsInt({ message: 'address_cooldown_seconds must be an integer from 0 to 2592000 (30 days)' })
  @Min(0, { message: 'address_cooldown_seconds must be an integer from 0 to 2592000 (30 days)' })
  @Max(2_592_000, { message: 'address_cooldown_seconds must be an integer from 0 to 2592000 (30 days)' })
  address_cooldown_seconds?: number;
}

/** withdrawals.command.set-withdrawal-policy.v1. */
export class SetWithdrawalPolicyCommand extends WithdrawalPolicyRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** withdrawals.query.withdrawal-policy.v1. */
export class GetWithdrawalPolicyQuery {
  @IsUUID()
  partner_id!: PartnerId;
}

export class WithdrawalPolicyView {
  @ApiProperty({ format: 'uuid' }) partner_id!: string;
  @ApiProperty() beneficiary_required!: boolean;
  @ApiProperty() address_book_only!: boolean;
  @ApiProperty({ type: 'integer' }) address_cooldown_seconds!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix seconds; null: never set (the defaults)' }) updated_at!: number | null;
  @ApiProperty({ type: String, nullable: true }) updated_by!: string | null;
}
