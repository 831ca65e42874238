import { HotWalletView } from '@partner/contracts';
import { HotWallet } from './hot-wallet.repository';

/** A lane's state as the operator sees it (GET /admin/v1/hot-wallets) and as the partner's waiting_reason reads it. */
export type LaneState = Pick<HotWalletView, 'state' | 'reason' | 'waiting_since'>;

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/**
 * The state of one lane from its row: a stop (a finding) first, then a wallet the pool no longer gives
 * withdrawals to (its key gone, or retired), then the wait the last round recorded; else active.
 */
export function laneState(row: HotWallet | undefined, pool: { configured: boolean; retired: boolean }): LaneState {
  if (row?.stopped) return { state: 'stopped', reason: null, waiting_since: null };
  if (!pool.configured) return { state: 'retired', reason: 'key_not_configured', waiting_since: null };
  if (pool.retired) return { state: 'retired', reason: 'HOT_WALLETS_RETIRED', waiting_since: null };
  if (row?.waiting) return { state: 'waiting', reason: row.waiting.reason, waiting_since: seconds(row.waiting.since) };
  return { state: 'active', reason: null, waiting_since: null };
}

/** Whether the lane signs withdrawals now: active, or only full (in_flight_cap: its queue moves as blocks mine). */
export const laneSigns = (s: LaneState): boolean => s.state === 'active' || (s.state === 'waiting' && s.reason === 'in_flight_cap');
