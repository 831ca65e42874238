import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { CreateUsdtWithdrawalRequest } from './create-usdt-withdrawal.request';
import { PartnerId } from '../../tenancy/partner-id';

/** The HTTP body plus the partner it is for; validated again by the withdrawals service. */
export class CreateWithdrawalCommand extends CreateUsdtWithdrawalRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/** `created` is false when the idempotency key was used before with the same request (HTTP 200). */
export interface CreateWithdrawalResult {
  id: number;
  created: boolean;
}

/** The HTTP answer of POST /partner/v1/withdrawals/usdt, 201 and 200 alike (docs/api.md: "USDT withdrawals"). */
export class CreateUsdtWithdrawalResponse {
  @ApiProperty({ type: 'integer', description: "The withdrawal's id; its events carry it as resource_id", example: 1 })
  id!: number;
}
