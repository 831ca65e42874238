import { ApiProperty } from '../../api-documentation';
import { Beneficiary, NULLABLE_BENEFICIARY_SCHEMA } from '../beneficiary/beneficiary';
import { Transform } from 'class-transformer';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { positiveIntegerString } from '../../query-transforms';
import {
  FEE_CHOICES,
  FeeChoice,
  Network,
  NETWORKS,
  WITHDRAWAL_STATES,
  WITHDRAWAL_WAITING_REASONS,
  WithdrawalState,
  WithdrawalWaitingReason,
} from '../withdrawal.types';
import { PartnerId } from '../../tenancy/partner-id';

const ID_MESSAGE = 'id must be a positive integer (the id POST /partner/v1/withdrawals/usdt answered)';

/** The path parameter of GET /partner/v1/withdrawals/usdt/{id}; the same class validates the Kafka payload. */
export class WithdrawalIdParams {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1, description: 'The id POST /partner/v1/withdrawals/usdt answered' })
  @Transform(positiveIntegerString)
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: ID_MESSAGE })
  id!: number;
}

export class GetWithdrawalQuery extends WithdrawalIdParams {
  @IsUUID()
  partner_id!: PartnerId;
}

/** A withdrawal as GET /partner/v1/withdrawals/usdt/{id} answers it. Micros are integers; times Unix seconds. */
export class UsdtWithdrawalView {
  @ApiProperty({ type: 'integer', example: 1 })
  id!: number;

  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  document!: string;

  @ApiProperty({ example: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' })
  address!: string;

  @ApiProperty({ enum: NETWORKS })
  network!: Network;

  @ApiProperty({ enum: FEE_CHOICES })
  fee_choice!: FeeChoice;

  @ApiProperty({ type: 'integer', description: 'Amount sent, in USDT micros', example: 1_000_000 })
  usdtmicros!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Network fee held with the amount and charged on settlement, in USDT micros',
    example: 50_000,
  })
  fee_usdtmicros!: number;

  @ApiProperty({
    ...NULLABLE_BENEFICIARY_SCHEMA,
    description: "Who owns the destination, as the request or the user's saved address named it; null when neither did",
  })
  beneficiary!: Beneficiary | null;

  @ApiProperty({ enum: WITHDRAWAL_STATES })
  state!: WithdrawalState;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The transaction on `network`: set once a node accepted it (`sent`); from `settled` or `failed` on, the hash that was mined',
  })
  tx_hash!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The block its transaction was mined in, once known' })
  block_number!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Set when failed: destination_refused (the token refuses the destination; found before signing, so no tx_hash), address_blocked (the destination was put on a screening list while it waited; never signed, no tx_hash), rejected_by_operator (an operator rejected it while it waited for approval), transfer_reverted (mined and reverted), nonce_taken',
  })
  failure_reason!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "When `reported`: the id of the operator's report to the Receita Federal that includes it; null before",
  })
  report_id!: string | null;

  @ApiProperty({
    // null among the values too: OpenAPI 3.0 validators check `enum` before `nullable`.
    enum: [...WITHDRAWAL_WAITING_REASONS, null],
    nullable: true,
    description:
      'While `created`: why it is not being paid now (the operator has a cause to lift: awaiting_liquidity, network_fees_above_cap, operator_wallet_unavailable, operator_review); null while it is simply in its turn, and in every other state. It goes on by itself; no action is asked of the partner',
  })
  waiting_reason!: WithdrawalWaitingReason | null;

  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created_at!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds of the last state change' })
  last_updated_at!: number;
}

export type GetWithdrawalResult = UsdtWithdrawalView;
