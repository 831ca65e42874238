import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';
import { UserBalances } from '../../inflows/accounts/brl-account.query';

/** withdrawals.query.get-balance.v1: a user's balance (user_not_found when the partner has no such user). */
export class GetBalanceQuery {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

/** The path of GET /partner/v1/users/{document}/balance: a CPF, refused as the withdrawals family refuses one (invalid_request). */
export class UserDocumentParams {
  @ApiProperty({ description: "The user's CPF, 11 digits", example: '52998224725' })
  @IsCpf()
  document!: string;
}

/** A user's balance as GET /partner/v1/users/{document}/balance answers it: the operator API's UserBalances (USDT and BRL) with its CPF. */
export class UserBalanceView extends UserBalances {
  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  document!: string;
}
