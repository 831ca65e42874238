import { ApiProperty } from '../../api-documentation';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsISO8601, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ScreeningListView } from '../screening/screening.types';

/**
 * At most this many addresses in one copy (the SDN list held 156 EVM addresses in 2024): 1,000 of them, about
 * 45 kB of JSON, fit the gateway's BODY_LIMIT_BYTES (64 KiB) with room to spare.
 */
export const MAX_SDN_ADDRESSES = 1_000;
const SDN_ADDRESS_MESSAGE = 'each of addresses must be 0x and 40 hexadecimal digits';

/**
 * The body of PUT /admin/v1/screening/ofac-sdn: a new copy of the SDN list's EVM addresses, replacing the
 * one in use as a whole. Addresses are taken in any letter case (lists copy them as published, checksum or
 * not) and kept in lower case.
 */
export class ReplaceSdnListRequest {
  @ApiProperty({
    description: 'Where the copy comes from (kept and shown with it)',
    minLength: 1,
    maxLength: 300,
    example: 'sdn_advanced.xml of 2026-11-28, extracted with generate-address-list.py',
  })
  @IsString({ message: 'source must be 1 to 300 characters of text' })
  @Length(1, 300, { message: 'source must be 1 to 300 characters of text' })
  source!: string;

  @ApiProperty({
    type: 'integer',
    description: 'When the list was published (Unix seconds): a copy older than the one in use is refused (409 invalid_transition)',
    example: 1764288000,
  })
  @IsInt({ message: 'published_at must be Unix seconds' })
  @Min(1_230_768_000, { message: 'published_at must be Unix seconds' })
  @Max(4_102_444_800, { message: 'published_at must be Unix seconds' })
  published_at!: number;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_SDN_ADDRESSES,
    description: 'Every EVM address of the list (0x and 40 hexadecimal digits, any case)',
    example: ['0x8589427373d6d84e98730d7795d8f6f8731fda16'],
  })
  @IsArray({ message: 'addresses must be a list of addresses' })
  @ArrayMinSize(1, { message: 'addresses must hold at least one address' })
  @ArrayMaxSize(MAX_SDN_ADDRESSES, { message: `addresses must hold at most ${MAX_SDN_ADDRESSES} addresses` })
  @IsString({ each: true, message: SDN_ADDRESS_MESSAGE })
  @Matches(/^0x[0-9a-fA-F]{40}$/, { each: true, message: SDN_ADDRESS_MESSAGE })
  addresses!: string[];
}

/**
 * withdrawals.command.replace-sdn-list.v1: the operator loads a new copy of the SDN list. In one transaction
 * the copy replaces the one in use, and every withdrawal not signed yet to an address the new copy lists
 * fails (`address_blocked`), its hold released.
 */
export class ReplaceSdnListCommand extends ReplaceSdnListRequest {
  /** The operator key that asked (its name and prefix), kept with the copy. */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** PUT /admin/v1/screening/ofac-sdn's answer: the copy now in use, and the waiting withdrawals it failed. */
export class ReplaceSdnListResult extends ScreeningListView {
  @ApiProperty({
    type: 'integer',
    isArray: true,
    description:
      'Withdrawals not signed yet to an address of the new copy, failed now with failure_reason address_blocked (their holds released)',
    example: [],
  })
  failed_withdrawals!: number[];
}
