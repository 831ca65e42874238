import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { Beneficiary } from '../beneficiary/beneficiary';
import { IsCpf, IsEvmAddress } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { FEE_CHOICES, FeeChoice, MAX_WITHDRAWAL_MICROS, MIN_WITHDRAWAL_MICROS, Network, NETWORKS } from '../withdrawal.types';

const withdrawalsCode = codesOf('withdrawals');

const amountMessage = `usdtmicros must be an integer number of micros from ${MIN_WITHDRAWAL_MICROS} to ${MAX_WITHDRAWAL_MICROS}`;

/**
 * Body of POST /partner/v1/withdrawals/usdt (docs/api.md: "USDT withdrawals"). Property order is the order
 * errors are reported in when several fields are wrong. The family's error codes (docs/api.md: "Errors")
 * are attached to their fields.
 */
export class CreateUsdtWithdrawalRequest {
  @ApiProperty({ description: "User's CPF, 11 digits", example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ description: 'Unique per request; a replay returns the first answer', format: 'uuid' })
  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key!: string;

  @ApiProperty({
    description: 'Destination EVM address; mixed case must match EIP-55',
    example: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  })
  @IsString(withdrawalsCode('invalid_address', 'address must be a string'))
  @IsEvmAddress(withdrawalsCode('invalid_address'))
  address!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Amount in USDT micros (1 USDT = 1,000,000)',
    minimum: MIN_WITHDRAWAL_MICROS,
    maximum: MAX_WITHDRAWAL_MICROS,
    example: 1_000_000,
  })
  @IsInt(withdrawalsCode('invalid_amount', amountMessage))
  @Min(MIN_WITHDRAWAL_MICROS, withdrawalsCode('invalid_amount', amountMessage))
  @Max(MAX_WITHDRAWAL_MICROS, withdrawalsCode('invalid_amount', amountMessage))
  usdtmicros!: number;

  @ApiProperty({ enum: FEE_CHOICES, description: 'Network fee priority' })
  @IsIn(FEE_CHOICES, withdrawalsCode('invalid_fee', `fee_choice must be one of ${FEE_CHOICES.join(', ')}`))
  fee_choice!: FeeChoice;

  @ApiProperty({ enum: NETWORKS, description: 'ETH (Ethereum mainnet) or MATIC (Polygon)' })
  @IsIn(NETWORKS, { message: `network must be one of ${NETWORKS.join(', ')}` })
  network!: Network;

  @ApiProperty({
    type: Beneficiary,
    required: false,
    description:
      'Who owns the destination (an extension): required when your withdrawal policy says so, unless the user saved the address with its owner (docs/api.md: "The destination\'s owner")',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => Beneficiary)
  beneficiary?: Beneficiary;
}
