import { HotWallet } from '../hot-wallets/hot-wallet.repository';
import { networkWaits, waitingReason } from './waiting-reason';
import { createdWithdrawal, Withdrawal } from './withdrawal.repository';

const lane = (address: string, network: 'ETH' | 'MATIC', waiting: string | null, stopped = false): HotWallet => ({
  network,
  address,
  chainId: 1,
  genesisHash: '0x00',
  nextNonce: 0n,
  registeredBlock: null,
  scannedBlock: null,
  stopped: stopped ? { findingId: 7, detail: 'nonce_ahead' } : null,
  waiting: waiting === null ? null : { reason: waiting, since: new Date(0) },
  revertsInARow: 0,
});
const pool = new Set(['0xa', '0xb']);

const withdrawal = (payout: Partial<Withdrawal['payout']> = {}, state: Withdrawal['state'] = 'created'): Withdrawal => {
  const w = createdWithdrawal({} as Parameters<typeof createdWithdrawal>[0], 1, new Date(0));
  return { ...w, network: 'MATIC', state, payout: { ...w.payout, ...payout } };
};

describe('networkWaits', () => {
  it('tells nothing of a network where one lane of the pool signs, or where the lanes are only full', () => {
    expect(networkWaits([lane('0xa', 'MATIC', 'usdt_short'), lane('0xb', 'MATIC', null)], pool)).toEqual(new Map());
    expect(networkWaits([lane('0xa', 'MATIC', 'in_flight_cap'), lane('0xb', 'MATIC', 'usdt_short')], pool)).toEqual(new Map());
  });

  it("names a network's wait when no lane of the pool signs, a top-up's cause first", () => {
    expect(networkWaits([lane('0xa', 'MATIC', 'token_refuses_wallet'), lane('0xb', 'MATIC', 'gas_short')], pool)).toEqual(
      new Map([['MATIC', 'awaiting_liquidity']]),
    );
    expect(networkWaits([lane('0xa', 'ETH', 'token_refuses_wallet'), lane('0xb', 'ETH', null, true)], pool)).toEqual(
      new Map([['ETH', 'operator_wallet_unavailable']]),
    );
    expect(networkWaits([lane('0xa', 'ETH', null, true), lane('0xb', 'ETH', 'usdt_short', true)], pool)).toEqual(
      new Map([['ETH', 'operator_review']]),
    );
  });

  it('counts only the wallets given withdrawals: a retired or unconfigured one signing nothing hides no wait', () => {
    const lanes = [lane('0xA', 'MATIC', 'usdt_short'), lane('0xc', 'MATIC', null)];
    expect(networkWaits(lanes, pool)).toEqual(new Map([['MATIC', 'awaiting_liquidity']]));
  });
});

describe('waitingReason', () => {
  const waits = new Map([['MATIC', 'operator_wallet_unavailable'] as const]);

  it("gives an aside withdrawal its own reason, a queued one its network's", () => {
    expect(waitingReason(withdrawal({ state: 'aside', reason: 'exceeds_float' }), waits)).toBe('awaiting_liquidity');
    expect(waitingReason(withdrawal({ state: 'aside', reason: 'fee_cap' }), new Map())).toBe('network_fees_above_cap');
    expect(waitingReason(withdrawal({ state: 'queued' }), waits)).toBe('operator_wallet_unavailable');
    expect(waitingReason(withdrawal({ state: 'queued' }), new Map())).toBeNull();
  });

  it('is null once it is signed, and in every state but created', () => {
    expect(waitingReason(withdrawal({ state: 'signed' }), waits)).toBeNull();
    expect(waitingReason(withdrawal({ state: 'finished' }, 'failed'), waits)).toBeNull();
  });
});
