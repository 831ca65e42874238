import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import {
  PIX_IN_METHODS,
  PIX_IN_NOTIFIED_STATUSES,
  PixInMethod,
  PixInNotifiedStatus,
  SENDER_ACCOUNT_TYPES,
  SenderAccountType,
} from '../pix-in.types';
import { ReceiverAccount } from '../ingest-pix-inflow/ingest-pix-inflow.command';
import { OperatorPageRequest } from '../../withdrawals/operator-page.request';

/** inflows.query.list-unmatched.v1: the inflows kept aside (no user has their receiving account), newest first. */
export class ListUnmatchedPixInflowsQuery extends OperatorPageRequest {}

/**
 * An inflow the Pix provider notified for an account no user has: kept as notified, moved by later
 * notifications like any inflow, credited to no one, in no partner's listing or feed.
 */
export class UnmatchedPixInflowView {
  @ApiProperty({ example: 'E60701190202611260430Ab12Cd34Ef5' })
  end_to_end_id!: string;

  @ApiProperty({ type: 'integer', description: 'Cents of BRL', example: 25_000 })
  amount_cents!: number;

  @ApiPropertyOptional({ description: "The payer's message; left out when there is none", example: 'aluguel' })
  description?: string;

  @ApiProperty({ enum: PIX_IN_METHODS })
  method!: PixInMethod;

  @ApiProperty({ type: () => ReceiverAccount, description: 'The receiving account as notified: no user has it' })
  receiver_account!: ReceiverAccount;

  @ApiProperty({ type: String, nullable: true, description: 'The Pix key as notified (method dict); null when none', example: null })
  receiver_key!: string | null;

  @ApiProperty({ example: 'Maria Souza' })
  sender_name!: string;

  @ApiProperty({ example: '39053344705' })
  sender_tax_id!: string;

  @ApiProperty({ example: '12345678' })
  sender_account_number!: string;

  @ApiProperty({ enum: SENDER_ACCOUNT_TYPES })
  sender_account_type!: SenderAccountType;

  @ApiProperty({ example: '60701190' })
  sender_bank_code!: string;

  @ApiProperty({ example: '0001' })
  sender_branch_code!: string;

  @ApiProperty({ enum: PIX_IN_NOTIFIED_STATUSES, description: 'The last status the provider notified' })
  status!: PixInNotifiedStatus;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: the first notification', example: 1795315285 })
  created_at!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: the last change', example: 1795315285 })
  last_updated_at!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: ['account_not_found', 'account_blocked', 'account_closed'],
    description:
      'What the provider was answered: account_not_found (no user has the account), account_blocked (blocked, or its partner disabled), account_closed; null for one kept aside before refusals were answered (the provider was answered 202)',
    example: 'account_not_found',
  })
  refusal!: 'account_not_found' | 'account_blocked' | 'account_closed' | null;
}

export class UnmatchedPixInflowsPage {
  @ApiProperty({ type: [UnmatchedPixInflowView], description: 'Newest first' })
  unmatched_pix_inflows!: UnmatchedPixInflowView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next (older) page; null on the last page' })
  next_cursor!: string | null;
}
