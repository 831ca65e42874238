import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';
import { OperatorPageRequest } from '../operator-page.request';

/** withdrawals.query.ledger.v1: a page of a user's ledger, newest first (user_not_found for an unknown user). */
export class GetLedgerQuery extends OperatorPageRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

/**
 * What moved: a credit; a withdrawal's hold of amount + fee (available to held), its settlement (the hold
 * leaves: paid out), or its release (the hold back to available: it failed). `sandbox_credit`: the retired
 * sandbox credit, in ledgers written before the operator API.
 */
export const LEDGER_ENTRY_TYPES = ['credit', 'sandbox_credit', 'withdrawal_hold', 'withdrawal_settle', 'withdrawal_release'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

/** One balance movement. Deltas are signed micros: positive adds to that balance, negative takes from it. */
export class LedgerEntryView {
  @ApiProperty({ type: 'integer', description: 'Increasing: later movements have larger ids', example: 42 })
  id!: number;

  @ApiProperty({ enum: LEDGER_ENTRY_TYPES })
  type!: LedgerEntryType;

  @ApiProperty({
    type: 'integer',
    description: 'Signed micros added to (positive) or taken from (negative) the available balance',
    example: -1_050_000,
  })
  available_delta_micros!: number;

  @ApiProperty({ type: 'integer', description: 'Signed micros added to or taken from the held balance', example: 1_050_000 })
  held_delta_micros!: number;

  @ApiProperty({ type: 'integer', description: 'The available balance right after this entry', example: 8_950_000 })
  available_after_micros!: number;

  @ApiProperty({ type: 'integer', description: 'The held balance right after this entry', example: 1_050_000 })
  held_after_micros!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The withdrawal it belongs to (withdrawal_* entries); null for credits',
    example: 7,
  })
  withdrawal_id!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The network fee within this movement (withdrawal_* entries: the withdrawal's fee, part of the deltas); null for credits",
    example: 50_000,
  })
  fee_micros!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The network of the withdrawal it belongs to; null for credits',
    example: 'MATIC',
  })
  network!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'withdrawal_settle / withdrawal_release: the transaction mined on chain; null otherwise',
    example: null,
  })
  tx_hash!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "withdrawal_settle / withdrawal_release: the gas the hot wallet spent on it (gasUsed × effectiveGasPrice), in the network's native unit (wei), as a decimal string; null otherwise. The operator's cost, not charged to the user (the user pays fee_micros)",
    example: '1234567890000000',
  })
  gas_cost_wei!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The credit's idempotency key (credits); null for withdrawal moves",
    example: null,
  })
  idempotency_key!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The credit's reference (credits); null for withdrawal moves",
    example: null,
  })
  reference!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "Who credited (credits): the operator key that asked and, above the approval threshold, the one that approved ('ops (adm_1a2b3c4d); approved by risk (adm_9f8e7d6c)'); null for withdrawal moves and sandbox credits",
    example: null,
  })
  operators!: string | null;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  created_at!: number;
}

export class LedgerPage {
  @ApiProperty({ type: [LedgerEntryView], description: 'Newest first' })
  entries!: LedgerEntryView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next (older) page; null on the last page' })
  next_cursor!: string | null;
}
