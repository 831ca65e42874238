import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';
import { AccountBalance } from '../../withdrawals/credit-account/credit-account.command';
import { ACCOUNT_TYPES, AccountType } from '../../users/upsert-user/upsert-user.command';
import { OperatorPageRequest } from '../../withdrawals/operator-page.request';

/** inflows.query.get-balance.v1: a user's BRL balance (user_not_found when the partner has no such user here). */
export class GetBrlBalanceQuery {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

/** A user's BRL balance, kept by the inflows service: the credited Pix inflows, less what MED cases hold blocked. */
export interface BrlBalance {
  available_brl_cents: number;
  /** Cents MED cases hold blocked: the user's, not spendable (docs/api.md: "MED"). */
  blocked_brl_cents: number;
}

/**
 * A user's balances in both currencies, as GET /partner/v1/users/{document}/balance and the operator's
 * GET .../users/{document}/balance answer them: the USDT balance (withdrawals) and the BRL one (inflows).
 */
export class UserBalances extends AccountBalance {
  @ApiProperty({
    type: 'integer',
    description:
      "BRL cents in the user's payment account it can spend: the Pix inflows credited to it, less what was refunded and what MED cases hold blocked",
    example: 25_000,
  })
  available_brl_cents!: number;

  @ApiProperty({
    type: 'integer',
    description:
      "BRL cents MED cases (the Pix rules' special return mechanism) hold blocked: still the user's, not spendable until released or returned to the payer",
    example: 0,
  })
  blocked_brl_cents!: number;
}

/** A user's payment account at the operator, as the operator API and the sandbox answer it. */
export class AccountView {
  @ApiProperty({ description: "The operator's ISPB (OPERATOR_ISPB), 8 digits", example: '99999999' })
  ispb!: string;

  @ApiProperty({ description: 'Branch (agência), 4 digits', example: '0001' })
  branch!: string;

  @ApiProperty({ description: 'Account number, digits only, its check digit (modulo 11) last', example: '100000002' })
  number!: string;

  @ApiProperty({ enum: ACCOUNT_TYPES, description: 'TRAN: a payment account', example: 'TRAN' })
  type!: AccountType;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when the account was opened', example: 1795315285 })
  opened_at!: number;
}

/** inflows.query.brl-ledger.v1: a page of a user's BRL ledger, newest first (user_not_found for an unknown user). */
export class GetBrlLedgerQuery extends OperatorPageRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

/**
 * What moved a BRL balance: a Pix inflow reaching `credited`, a refund of one (its debit), a failed refund (credited
 * back); a MED case blocking cents (available to blocked), releasing them (back), returning blocked cents by
 * devolução, and that devolução failing (back to blocked).
 */
export const BRL_LEDGER_ENTRY_TYPES = [
  'pix_in_credit',
  'pix_in_refund',
  'pix_in_refund_reversal',
  'med_block',
  'med_release',
  'med_return',
  'med_return_reversal',
] as const;
export type BrlLedgerEntryType = (typeof BRL_LEDGER_ENTRY_TYPES)[number];

/** One movement of a user's BRL balance, written in the transaction of the change. */
export class BrlLedgerEntryView {
  @ApiProperty({ type: 'integer', description: 'Increasing: later movements have larger ids', example: 7 })
  id!: number;

  @ApiProperty({
    enum: BRL_LEDGER_ENTRY_TYPES,
    description:
      'pix_in_credit: a Pix inflow was credited; pix_in_refund: a refund of one was debited; pix_in_refund_reversal: that refund failed, credited back; med_block: a MED case blocked cents (available to blocked); med_release: it released them; med_return: blocked cents returned to the payer by devolução; med_return_reversal: that devolução failed, blocked again',
  })
  type!: BrlLedgerEntryType;

  @ApiProperty({ enum: ['BRL'], description: 'Always BRL (the USDT ledger is GET .../ledger)' })
  currency!: 'BRL';

  @ApiProperty({ type: 'integer', description: 'Signed cents added to (positive) or taken from (negative) the balance', example: 25_000 })
  available_delta_cents!: number;

  @ApiProperty({ type: 'integer', description: 'The balance right after this entry', example: 40_000 })
  available_after_cents!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Signed cents added to or taken from the blocked balance (MED); 0 for the others',
    example: 0,
  })
  blocked_delta_cents!: number;

  @ApiProperty({ type: 'integer', description: 'The blocked balance right after this entry', example: 0 })
  blocked_after_cents!: number;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The MED case of a med_* entry; null for the others',
    example: null,
  })
  med_case_id!: string | null;

  @ApiProperty({ description: 'The Pix inflow credited, or refunded', example: 'E60701190202611260430Ab12Cd34Ef5' })
  end_to_end_id!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The refund (pix_in_refund, pix_in_refund_reversal, med_return, med_return_reversal); null for the others',
    example: null,
  })
  refund_id!: number | null;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  created_at!: number;
}

export class BrlLedgerPage {
  @ApiProperty({ type: [BrlLedgerEntryView], description: 'Newest first' })
  entries!: BrlLedgerEntryView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next (older) page; null on the last page' })
  next_cursor!: string | null;
}
