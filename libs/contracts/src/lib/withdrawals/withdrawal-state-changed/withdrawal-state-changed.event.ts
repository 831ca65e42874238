import { Equals, IsIn } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';
import { FeeChoice, Network, WITHDRAWAL_STATES, WithdrawalState } from '../withdrawal.types';

/** The withdrawal as partners see it inside a usdt_withdrawal event. */
export interface UsdtWithdrawalSnapshot {
  id: number;
  document: string;
  idempotency_key: string;
  address: string;
  network: Network;
  fee_choice: FeeChoice;
  usdtmicros: number;
  fee_micros: number;
  state: WithdrawalState;
  tx_hash: string | null;
  failure_reason: string | null;
  created_at: number;
  last_updated_at: number;
}

export class WithdrawalStateChangedEvent extends FeedEvent<UsdtWithdrawalSnapshot> {
  @Equals('usdt_withdrawal')
  override type!: 'usdt_withdrawal';

  @IsIn(WITHDRAWAL_STATES)
  override state!: WithdrawalState;
}
