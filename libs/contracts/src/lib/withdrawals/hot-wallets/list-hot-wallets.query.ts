import { ApiProperty } from '../../api-documentation';
import { IsISO8601 } from 'class-validator';
import { NETWORKS, Network } from '../withdrawal.types';

/** withdrawals.query.hot-wallets.v1: the hot wallet of each network, read off the chain now (operator API). */
export class ListHotWalletsQuery {
  @IsISO8601()
  asked_at!: string;
}

export const HOT_WALLET_STATES = ['signing', 'stopped'] as const;
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

  @ApiProperty({ type: 'integer', description: 'Withdrawals of this network not final yet (waiting, signed or sent)', example: 3 })
  pending!: number;

  @ApiProperty({ type: 'integer', description: 'The nonce the next payout will take', example: 1042 })
  next_nonce!: number;

  @ApiProperty({
    enum: HOT_WALLET_STATES,
    description:
      'signing: payouts go on; stopped: a transaction the books never signed was mined from this wallet (a stolen key, a restored backup): nothing is signed from it until the nonce_ahead finding `stopped_by` is resolved',
    example: 'signing',
  })
  state!: HotWalletState;

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

export class ListHotWalletsResult {
  @ApiProperty({ type: [HotWalletView] })
  hot_wallets!: HotWalletView[];
}
