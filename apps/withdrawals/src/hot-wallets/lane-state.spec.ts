import { HotWallet } from './hot-wallet.repository';
import { laneSigns, laneState } from './lane-state';

const row = (over: Partial<HotWallet> = {}): HotWallet => ({
  network: 'MATIC',
  address: '0xa',
  chainId: 137,
  genesisHash: '0x00',
  nextNonce: 0n,
  registeredBlock: null,
  scannedBlock: null,
  stopped: null,
  waiting: null,
  revertsInARow: 0,
  ...over,
});
const inPool = { configured: true, retired: false };

describe('laneState', () => {
  it('puts a stop first, then a wallet the pool gives nothing to, then the wait the round recorded', () => {
    const stopped = row({ stopped: { findingId: 3, detail: 'nonce_ahead' }, waiting: { reason: 'usdt_short', since: new Date(0) } });
    expect(laneState(stopped, { configured: false, retired: true })).toEqual({ state: 'stopped', reason: null, waiting_since: null });
    expect(laneState(row(), { configured: false, retired: false })).toMatchObject({ state: 'retired', reason: 'key_not_configured' });
    expect(laneState(row(), { configured: true, retired: true })).toMatchObject({ state: 'retired', reason: 'HOT_WALLETS_RETIRED' });
    expect(laneState(row({ waiting: { reason: 'gas_short', since: new Date(5_500) } }), inPool)).toEqual({
      state: 'waiting',
      reason: 'gas_short',
      waiting_since: 5,
    });
    expect(laneState(undefined, inPool)).toEqual({ state: 'active', reason: null, waiting_since: null });
  });

  it('counts a lane that is only full as signing: its queue moves as blocks mine', () => {
    const state = (waiting: string | null) => laneState(row({ waiting: waiting ? { reason: waiting, since: new Date(0) } : null }), inPool);
    expect([null, 'in_flight_cap', 'usdt_short', 'token_refuses_wallet'].map((w) => laneSigns(state(w)))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(laneSigns(laneState(row({ stopped: { findingId: 1, detail: 'x' } }), inPool))).toBe(false);
  });
});
