import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { Equals, IsIn, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { Nullable } from '../../feed/nullable.validator';
import { FeedEvent } from '../../feed/feed-event.event';
import { Beneficiary, NULLABLE_BENEFICIARY_SCHEMA } from '../beneficiary/beneficiary';
import { FEE_CHOICES, FeeChoice, Network, NETWORKS, WITHDRAWAL_STATES, WithdrawalState } from '../withdrawal.types';
import { UnixSeconds } from '../../feed/unix-seconds.property';

/** The withdrawal as partners see it inside a usdt_withdrawal event (also its schema in the OpenAPI document). */
export class UsdtWithdrawalSnapshot {
  @ApiProperty({ type: 'integer', description: "The withdrawal's id (the `id` of its creation answer)", example: 1 })
  @IsInt()
  id!: number;

  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ format: 'uuid' })
  @IsString()
  idempotency_key!: string;

  @ApiProperty({ example: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' })
  @IsString()
  address!: string;

  @ApiProperty({ enum: NETWORKS })
  @IsIn(NETWORKS)
  network!: Network;

  @ApiProperty({ enum: FEE_CHOICES })
  @IsIn(FEE_CHOICES)
  fee_choice!: FeeChoice;

  @ApiProperty({ type: 'integer', description: 'Amount in USDT micros', example: 1_000_000 })
  @IsInt()
  usdtmicros!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Network fee in USDT micros, held with the amount and charged on settlement',
    example: 50_000,
  })
  @IsInt()
  fee_micros!: number;

  @ApiProperty({
    ...NULLABLE_BENEFICIARY_SCHEMA,
    required: false,
    description: 'Who owns the destination, when the request or the saved address named it (absent from events written before it existed)',
  })
  // Optional when read: events written before the field existed lack it.
  @IsOptional()
  @ValidateNested()
  @Type(() => Beneficiary)
  beneficiary?: Beneficiary | null;

  @ApiProperty({ enum: WITHDRAWAL_STATES })
  @IsIn(WITHDRAWAL_STATES)
  state!: WithdrawalState;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The transaction on `network`: set once a node accepted it (`sent`); from `settled` or `failed` on, the hash that was mined (a replacement with higher fees may have taken the first one's place)",
    example: null,
  })
  @Nullable()
  @IsString()
  tx_hash!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The block its transaction was mined in, once known (always set when `settled` or `failed`)',
    example: null,
  })
  @Nullable()
  @IsInt()
  block_number!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why a failed withdrawal failed: destination_refused (before signing, no tx_hash), address_blocked (listed by screening before signing, no tx_hash), rejected_by_operator (from pending_approval), transfer_reverted, nonce_taken',
    example: null,
  })
  @Nullable()
  @IsString()
  failure_reason!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "When `reported`: the operator's report to the Receita Federal that includes it; null before",
    example: null,
    required: false,
  })
  // Optional when read: events written before the field existed lack it.
  @IsOptional()
  @IsString()
  report_id?: string | null;

  @UnixSeconds()
  created_at!: number;

  @UnixSeconds()
  last_updated_at!: number;
}

export class WithdrawalStateChangedEvent extends FeedEvent<UsdtWithdrawalSnapshot> {
  @Equals('usdt_withdrawal')
  override type!: 'usdt_withdrawal';

  @IsIn(WITHDRAWAL_STATES)
  override state!: WithdrawalState;

  @ValidateNested()
  @Type(() => UsdtWithdrawalSnapshot)
  override resource!: UsdtWithdrawalSnapshot;
}
