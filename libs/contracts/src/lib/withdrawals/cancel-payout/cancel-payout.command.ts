import { ApiProperty } from '../../api-documentation';
import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsString, Length, Max, Min } from 'class-validator';
import { positiveIntegerString } from '../../query-transforms';
import { OPERATOR_NOTE_MESSAGE } from '../finding-workflow/finding-workflow.command';
import { NETWORKS, Network, WITHDRAWAL_STATES, WithdrawalState } from '../withdrawal.types';

/** The body of POST /admin/v1/payouts/{withdrawal_id}/cancel: why (the same rule as a finding's note). */
export class CancelPayoutRequest {
  @ApiProperty({
    description: 'Why the nonce is cancelled (kept with the payout while it is cancelling, and logged)',
    minLength: 1,
    maxLength: 1000,
  })
  @IsString({ message: OPERATOR_NOTE_MESSAGE })
  @Length(1, 1000, { message: OPERATOR_NOTE_MESSAGE })
  note!: string;
}

/** `{withdrawal_id}` of a payout's path. */
export class PayoutParams {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The withdrawal whose payout it is' })
  @Transform(positiveIntegerString)
  @IsInt({ message: 'withdrawal_id must be a withdrawal id' })
  @Min(1, { message: 'withdrawal_id must be a withdrawal id' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'withdrawal_id must be a withdrawal id' })
  withdrawal_id!: number;
}

/**
 * withdrawals.command.cancel-payout.v1: an operator cancels the nonce a withdrawal's payout holds (signed or
 * broadcast, not yet mined → cancelling). The payout round then signs a 0-value self-transfer at that nonce
 * with higher fees: if it is mined, the withdrawal waits for a new nonce; if the transfer is mined instead,
 * it settles as usual (the two share the nonce: never both).
 */
export class CancelPayoutCommand extends CancelPayoutRequest {
  @IsInt()
  @Min(1)
  withdrawal_id!: number;

  /** The operator key that asked (its name and prefix), recorded with the cancel. */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** Where a withdrawal's payout stands (the withdrawals service's payout state, docs/operations/payouts.md). */
export const PAYOUT_STATES = ['queued', 'aside', 'signed', 'broadcast', 'mined', 'cancelling', 'finished'] as const;
export type PayoutStateName = (typeof PAYOUT_STATES)[number];

/** A withdrawal's payout as the operator API shows it. */
export class PayoutView {
  @ApiProperty({ type: 'integer', example: 42 })
  withdrawal_id!: number;

  @ApiProperty({ enum: NETWORKS })
  network!: Network;

  @ApiProperty({
    enum: WITHDRAWAL_STATES,
    description: "The withdrawal's state as its partner sees it (a cancel leaves it `sent`)",
    example: 'sent',
  })
  state!: WithdrawalState;

  @ApiProperty({
    enum: PAYOUT_STATES,
    description:
      'queued: waits for a nonce; aside: no wallet can pay it now (`reason`); signed: holds a nonce, not yet accepted by a node; broadcast: a node accepted it; ' +
      'mined: its receipt is recorded, not final yet; cancelling: a 0-value self-transfer at its nonce is being signed and sent (then queued again if the cancel is mined, ' +
      'settled if its transfer is mined instead); finished: settled or failed',
    example: 'cancelling',
  })
  payout_state!: PayoutStateName;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Why it waits aside (exceeds_float, fee_cap), or, while cancelling, who cancelled it and why ('<operator key>: <note>')",
    example: 'ops (adm_1a2b3c4d): the node keeps refusing the transfer',
  })
  reason!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The hot wallet whose nonce it holds (null while queued or aside)',
    example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  })
  from_address!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The nonce it holds (null while queued or aside)', example: 1042 })
  nonce!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The hash of its transfer a node last accepted (null before one was; a cancel never shows here)',
    example: null,
  })
  tx_hash!: string | null;
}
