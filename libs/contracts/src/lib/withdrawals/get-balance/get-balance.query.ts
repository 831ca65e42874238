import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';

/** withdrawals.query.get-balance.v1: a user's balance (user_not_found when the partner has no such user). */
export class GetBalanceQuery {
  @IsUUID()
  partner_id!: string;

  @IsCpf()
  document!: string;
}
