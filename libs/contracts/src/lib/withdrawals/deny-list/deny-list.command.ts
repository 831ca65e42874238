import { ApiProperty } from '../../api-documentation';
import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsEvmAddress } from '@partner/validation';
import { OPERATOR_NOTE_MESSAGE } from '../finding-workflow/finding-workflow.command';
import { positiveIntegerString } from '../../query-transforms';

const ADDRESS_MESSAGE = 'address must be an EVM address: 0x and 40 hexadecimal digits (mixed case must match EIP-55)';

/** The body of POST /admin/v1/screening/deny-list. */
export class DenyListAddRequest {
  @ApiProperty({
    description: 'The address to refuse (any case; kept in lower case)',
    example: '0x8589427373D6D84E98730D7795D8f6f8731FDA16',
  })
  @IsString({ message: ADDRESS_MESSAGE })
  @IsEvmAddress({ message: ADDRESS_MESSAGE })
  address!: string;

  @ApiProperty({ description: 'Why (kept with the entry)', minLength: 1, maxLength: 1000, example: 'phishing report 2026-11-29' })
  @IsString({ message: OPERATOR_NOTE_MESSAGE })
  @Length(1, 1000, { message: OPERATOR_NOTE_MESSAGE })
  note!: string;
}

/** `{address}` of a deny-list entry's path. */
export class DenyListParams {
  @ApiProperty({ description: 'The listed address (any case)' })
  @IsString({ message: ADDRESS_MESSAGE })
  @IsEvmAddress({ message: ADDRESS_MESSAGE })
  address!: string;
}

/**
 * withdrawals.command.deny-list-add.v1: the operator refuses an address. In one transaction the entry is
 * written and every withdrawal not signed yet to that address fails (`address_blocked`), its hold released.
 * Adding a listed address again changes nothing (its first entry stays).
 */
export class DenyListAddCommand extends DenyListAddRequest {
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** withdrawals.command.deny-list-remove.v1: the operator lifts an entry (not_found when the address is not listed). */
export class DenyListRemoveCommand extends DenyListParams {
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** GET /admin/v1/screening/deny-list's query: a page, by address. */
export class DenyListPageRequest {
  @ApiProperty({ type: 'integer', required: false, minimum: 1, maximum: 1000, description: 'Entries per page (default 100)' })
  @IsOptional()
  @Transform(positiveIntegerString)
  @IsInt({ message: 'limit must be an integer from 1 to 1000' })
  @Min(1, { message: 'limit must be an integer from 1 to 1000' })
  @Max(1000, { message: 'limit must be an integer from 1 to 1000' })
  limit?: number;

  @ApiProperty({ required: false, description: 'next_cursor of the previous page: the entries after that address' })
  @IsOptional()
  @IsString({ message: 'cursor must be a next_cursor this API returned' })
  @IsEvmAddress({ message: 'cursor must be a next_cursor this API returned' })
  cursor?: string;
}

/** withdrawals.query.deny-list.v1. */
export class DenyListQuery extends DenyListPageRequest {
  @IsISO8601()
  asked_at!: string;
}

export class DenyListEntryView {
  @ApiProperty({ description: 'The address, in lower case', example: '0x8589427373d6d84e98730d7795d8f6f8731fda16' })
  address!: string;

  @ApiProperty({ example: 'phishing report 2026-11-29' })
  note!: string;

  @ApiProperty({ description: 'The operator key that added it (name and prefix)', example: 'ops (adm_1a2b3c4d)' })
  added_by!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1764460800 })
  added_at!: number;
}

/** POST /admin/v1/screening/deny-list's answer: the entry, and the waiting withdrawals it failed. */
export class DenyListAddResult extends DenyListEntryView {
  @ApiProperty({ description: 'false: the address was listed already; its first entry is shown, nothing changed' })
  created!: boolean;

  @ApiProperty({
    type: 'integer',
    isArray: true,
    description: 'Withdrawals not signed yet to this address, failed now with failure_reason address_blocked (their holds released)',
    example: [42],
  })
  failed_withdrawals!: number[];
}

export class DenyListPage {
  @ApiProperty({ type: [DenyListEntryView], description: 'By address' })
  entries!: DenyListEntryView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last' })
  next_cursor!: string | null;
}
