import { ApiProperty } from '../../api-documentation';
import { IsISO8601 } from 'class-validator';
import { NETWORKS, Network } from '../withdrawal.types';

/** withdrawals.query.hot-wallets.v1: the hot wallet of each network, read off the chain now (operator API). */
export class ListHotWalletsQuery {
  @IsISO8601()
  asked_at!: string;
}

export const HOT_WALLET_STATES = ['active', 'waiting', 'stopped', 'retired'] as const;
export type HotWalletState = (typeof HOT_WALLET_STATES)[number];

export class HotWalletView {
  @ApiProperty({ enum: NETWORKS })
  network!: Network;

  @ApiProperty({ type: 'integer', description: 'The chain id its node serves (configured and checked)', example: 137 })
  chain_id!: number;

  @ApiProperty({ description: 'The hot wallet paying withdrawals on this network', example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
  address!: string;

  @ApiProperty({ description: 'The USDT contract paid from', example: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F' })
  token_contract!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The wallet's USDT now, in micros (null: the node did not answer)",
    example: 250_000_000_000,
  })
  usdt_micros!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The wallet's native coin for gas (ETH, POL) now, in wei, as a decimal string (null: the node did not answer)",
    example: '1250000000000000000',
  })
  native_wei!: string | null;

  @ApiProperty({
    type: 'integer',
    description: 'Withdrawals of this network not final yet (waiting, signed or sent), all wallets together',
    example: 3,
  })
  pending!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Transactions this wallet signed on this network and not yet mined (at most CHAIN_MAX_IN_FLIGHT_PER_WALLET)',
    example: 4,
  })
  in_flight!: number;

  @ApiProperty({ type: 'integer', description: 'The nonce the next payout will take', example: 1042 })
  next_nonce!: number;

  @ApiProperty({
    enum: HOT_WALLET_STATES,
    description:
      'active: it signs; waiting: it signs nothing now, for `reason` (token_refuses_wallet, usdt_short, gas_short), and goes on by itself when the cause is lifted (a lane full, in_flight at the cap, stays active); ' +
      'stopped: a finding stopped it (nonce_ahead: a transaction the books never signed was mined from it; reverts_in_a_row) until `stopped_by` is resolved; ' +
      'retired: given no new withdrawals (HOT_WALLETS_RETIRED, or its key is no longer configured), what it signed still followed',
    example: 'active',
  })
  state!: HotWalletState;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it waits (state waiting), or what retired it; null when active or stopped',
    example: null,
  })
  reason!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Since when (Unix seconds) it waits; null unless waiting', example: null })
  waiting_since!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The reconciliation finding that stopped it (null while signing)',
    example: null,
  })
  stopped_by!: number | null;

  @ApiProperty({ type: String, nullable: true, description: "Why it is stopped: the finding's detail (null while signing)", example: null })
  stopped_reason!: string | null;
}

/** Withdrawals no wallet of the pool can pay now, by network and reason. */
export class AsideView {
  @ApiProperty({ enum: NETWORKS })
  network!: Network;

  @ApiProperty({
    description:
      "exceeds_float: larger than every wallet's USDT beyond what is in flight (top one up); fee_cap: its fee choice costs more than CHAIN_MAX_FEE_GWEI now",
    example: 'exceeds_float',
  })
  reason!: string;

  @ApiProperty({ type: 'integer', example: 1 })
  count!: number;

  @ApiProperty({ type: 'integer', description: 'Their amounts together, in micros', example: 1_500_000_000_000 })
  usdt_micros!: number;

  @ApiProperty({ type: 'integer', description: 'Since when (Unix seconds) the oldest waits aside', example: 1795315285 })
  since!: number;
}

export class ListHotWalletsResult {
  @ApiProperty({ type: [HotWalletView], description: 'One entry per wallet of the pool and network (a lane)' })
  hot_wallets!: HotWalletView[];

  @ApiProperty({ type: [AsideView], description: 'Withdrawals waiting aside: no wallet can pay them now (the others go on)' })
  aside!: AsideView[];
}
