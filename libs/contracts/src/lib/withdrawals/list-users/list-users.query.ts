import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';
import { OperatorPageRequest } from '../operator-page.request';

/** withdrawals.query.list-users.v1: a page of a partner's users (their USDT accounts), by CPF. */
export class ListUsersQuery extends OperatorPageRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/** A partner's user as the operator API lists it: registered when, and the balance now. */
export class UserAccountView {
  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  document!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when the user was registered', example: 1795315285 })
  created_at!: number;

  @ApiProperty({ type: 'integer', description: 'USDT micros the user can withdraw', example: 10_000_000 })
  available_usdt_micros!: number;

  @ApiProperty({ type: 'integer', description: 'USDT micros held by withdrawals not yet settled or failed', example: 0 })
  held_usdt_micros!: number;
}

export class ListUsersResult {
  @ApiProperty({ type: [UserAccountView], description: 'By CPF, ascending' })
  users!: UserAccountView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last page' })
  next_cursor!: string | null;
}
