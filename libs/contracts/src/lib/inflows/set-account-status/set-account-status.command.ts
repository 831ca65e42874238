import { IsIn, IsISO8601, IsString, IsUUID, Length } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { ApiProperty } from '../../api-documentation';
import { PartnerId } from '../../tenancy/partner-id';
import { ACCOUNT_TYPES, AccountType } from '../../users/upsert-user/upsert-user.command';

/** A payment account's status: `active` receives Pix; `blocked` receives none until made active again; `closed` for good. */
export const ACCOUNT_STATUSES = ['active', 'blocked', 'closed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** The body of PUT /admin/v1/partners/{partner_id}/users/{document}/account/status. */
export class SetAccountStatusRequest {
  @ApiProperty({
    enum: ACCOUNT_STATUSES,
    description:
      'active: receives Pix; blocked: every new Pix to it is refused to the provider (account_blocked) until it is active again; closed: refused for good (account_closed), only with a zero BRL balance',
  })
  @IsIn(ACCOUNT_STATUSES)
  status!: AccountStatus;

  @ApiProperty({ description: 'Why, for the record (1-500 characters)', example: 'court order 0001234-56.2026' })
  @IsString()
  @Length(1, 500)
  reason!: string;
}

/**
 * inflows.command.set-account-status.v1: an operator blocks, unblocks or closes a user's payment account.
 * user_not_found for an unknown user; account_closed once closed (closed is final); account_not_empty to close
 * one holding a BRL balance. The same status again answers the account as it is.
 */
export class SetAccountStatusCommand extends SetAccountStatusRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;

  /** The operator key that asks (its name and prefix). */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** A user's payment account with its status, as the operator API answers it. */
export class AccountStatusView {
  @ApiProperty({ example: '52998224725' })
  document!: string;

  @ApiProperty({ description: 'Branch (agência), 4 digits', example: '0001' })
  branch!: string;

  @ApiProperty({ description: 'Account number, its check digit last', example: '100000002' })
  number!: string;

  @ApiProperty({ enum: ACCOUNT_TYPES, example: 'TRAN' })
  type!: AccountType;

  @ApiProperty({ enum: ACCOUNT_STATUSES, example: 'blocked' })
  status!: AccountStatus;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why it was last changed; null while never changed', example: 'court order' })
  status_reason!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds of the last change; null while never changed',
    example: 1795316719,
  })
  status_changed_at!: number | null;

  @ApiProperty({ type: 'integer', description: 'BRL cents in the account', example: 0 })
  available_brl_cents!: number;
}
