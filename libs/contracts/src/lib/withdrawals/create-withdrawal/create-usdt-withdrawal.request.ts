import { IsIn, IsInt, IsString, IsUUID, Max, Min } from 'class-validator';
import { IsCpf, IsEvmAddress, withCode } from '@partner/validation';
import { FEE_CHOICES, FeeChoice, MAX_WITHDRAWAL_MICROS, MIN_WITHDRAWAL_MICROS, Network, NETWORKS } from '../withdrawal.types';

const amountMessage = `usdtmicros must be an integer number of micros from ${MIN_WITHDRAWAL_MICROS} to ${MAX_WITHDRAWAL_MICROS}`;

/**
 * Body of POST /partner/v1/withdrawals/usdt (spec 2.1). Property order is the order errors are
 * reported in when several fields are wrong. Codes from spec section 7 are attached to their fields.
 */
export class CreateUsdtWithdrawalRequest {
  @IsCpf()
  document!: string;

  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key!: string;

  @IsString(withCode('invalid_address', 'address must be a string'))
  @IsEvmAddress(withCode('invalid_address'))
  address!: string;

  @IsInt(withCode('invalid_amount', amountMessage))
  @Min(MIN_WITHDRAWAL_MICROS, withCode('invalid_amount', amountMessage))
  @Max(MAX_WITHDRAWAL_MICROS, withCode('invalid_amount', amountMessage))
  usdtmicros!: number;

  @IsIn(FEE_CHOICES, withCode('invalid_fee', `fee_choice must be one of ${FEE_CHOICES.join(', ')}`))
  fee_choice!: FeeChoice;

  @IsIn(NETWORKS, { message: `network must be one of ${NETWORKS.join(', ')}` })
  network!: Network;
}
