import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';

/** withdrawals.query.get-balance.v1: a user's balance (user_not_found when the partner has no such user). */
export class GetBalanceQuery {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}
