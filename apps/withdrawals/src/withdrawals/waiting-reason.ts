import { Network, WithdrawalWaitingReason } from '@partner/contracts';
import { HotWallet } from '../hot-wallets/hot-wallet.repository';
import { laneSigns, laneState } from '../hot-wallets/lane-state';
import { Withdrawal } from './withdrawal.repository';

/** What a partner is told of a lane's wait, most telling first: a top-up ends the first two. */
const LANE_REASONS: [laneReason: string, partnerReason: WithdrawalWaitingReason][] = [
  ['usdt_short', 'awaiting_liquidity'],
  ['gas_short', 'awaiting_liquidity'],
  ['token_refuses_wallet', 'operator_wallet_unavailable'],
];
const ASIDE_REASONS: Record<string, WithdrawalWaitingReason> = { exceeds_float: 'awaiting_liquidity', fee_cap: 'network_fees_above_cap' };

/** Per network, why none of its lanes signs now; a network absent signs (or has no wallet to tell of). */
export type NetworkWaits = ReadonlyMap<Network, WithdrawalWaitingReason>;

/**
 * Why no lane of each network signs now, from the lanes the payout rounds keep (the operator's view,
 * GET /admin/v1/hot-wallets, reads the same rows and states: laneState): a network with one lane that signs
 * (laneSigns: active, or only full) is absent. Only the wallets that are given withdrawals
 * (`signing`: configured, not retired) count; the others sign nothing by design.
 */
export function networkWaits(lanes: readonly HotWallet[], signing: ReadonlySet<string>): NetworkWaits {
  const byNetwork = new Map<Network, HotWallet[]>();
  for (const lane of lanes)
    if (signing.has(lane.address.toLowerCase())) byNetwork.set(lane.network, [...(byNetwork.get(lane.network) ?? []), lane]);
  const waits = new Map<Network, WithdrawalWaitingReason>();
  for (const [network, own] of byNetwork) {
    const states = own.map((l) => laneState(l, { configured: true, retired: false }));
    if (states.some(laneSigns)) continue;
    const reasons = new Set(states.map((l) => (l.state === 'stopped' ? 'stopped' : (l.reason ?? ''))));
    const told = LANE_REASONS.find(([lane]) => reasons.has(lane));
    waits.set(network, told ? told[1] : 'operator_review');
  }
  return waits;
}

/**
 * The partner's reason for a withdrawal still `created`: its own (set aside: larger than every float, or
 * its fee above the cap) or its network's (no lane signs); null while it is in its turn, and once signed.
 */
export function waitingReason(w: Withdrawal, waits: NetworkWaits): WithdrawalWaitingReason | null {
  if (w.state !== 'created') return null;
  if (w.payout.state === 'aside') return ASIDE_REASONS[w.payout.reason ?? ''] ?? 'awaiting_liquidity';
  if (w.payout.state === 'queued') return waits.get(w.network) ?? null;
  return null;
}
