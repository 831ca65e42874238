import { ApiProperty } from '../../api-documentation';
import { NETWORKS, Network } from '../withdrawal.types';

/**
 * The lists a destination is screened against (docs/operations/screening.md):
 * - `ofac_sdn`: the EVM addresses of the U.S. Treasury's SDN list, a dated copy (vendored, or loaded by the operator);
 * - `token_blacklist`: the token contract's own blacklist (`isBlackListed`), read from the network's node(s);
 * - `deny_list`: the operator's own list (/admin/v1/screening/deny-list).
 */
export const SCREENING_LISTS = ['ofac_sdn', 'token_blacklist', 'deny_list'] as const;
export type ScreeningList = (typeof SCREENING_LISTS)[number];

/** The lists the service keeps itself (the token's blacklist lives on chain). */
export const STORED_SCREENING_LISTS = ['ofac_sdn', 'deny_list'] as const satisfies readonly ScreeningList[];
export type StoredScreeningList = (typeof STORED_SCREENING_LISTS)[number];

/** One list as the operator API shows it. */
export class ScreeningListView {
  @ApiProperty({ enum: SCREENING_LISTS, example: 'ofac_sdn' })
  list!: ScreeningList;

  @ApiProperty({
    description: "Where its entries come from: the copy's source, the token contracts read, or the operator",
    example: 'OFAC SDN list (sdn_advanced.xml), EVM addresses as extracted by 0xB10C/ofac-sanctioned-digital-currency-addresses',
  })
  source!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'ofac_sdn: when the copy was published (Unix seconds); null for the other lists',
    example: 1727397317,
  })
  published_at!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'ofac_sdn: when this copy was loaded into the service (Unix seconds); null for the other lists',
    example: 1764460800,
  })
  loaded_at!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'ofac_sdn: who loaded it (`vendored copy` at start, or the operator key)' })
  loaded_by!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'How many addresses it holds (null for token_blacklist: on chain)',
    example: 156,
  })
  addresses!: number | null;

  @ApiProperty({ enum: NETWORKS, isArray: true, description: 'The networks it applies to', example: ['ETH', 'MATIC'] })
  networks!: Network[];
}

/** GET /admin/v1/screening: what destinations are screened against now. */
export class ScreeningStatus {
  @ApiProperty({
    description: 'The screening adapter in use: `lists` (the three lists below); an outside provider would be named here',
    example: 'lists',
  })
  provider!: string;

  @ApiProperty({ type: [ScreeningListView] })
  lists!: ScreeningListView[];
}
