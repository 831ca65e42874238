import { PAYOUT_STATES as PAYOUT_VIEW_STATES } from '@partner/contracts';
import { testPartnerId } from '@partner/testing';
import { Withdrawal } from '../withdrawals/withdrawal.repository';
import { toPayoutView } from './cancel-payout.use-case';
import { PAYOUT_STATES } from './payout-state';

const withdrawal: Withdrawal = {
  id: 42,
  partnerId: testPartnerId(),
  document: '52998224725',
  idempotencyKey: 'k',
  fingerprint: '0'.repeat(64),
  address: '0x0000000000000000000000000000000000000001',
  network: 'MATIC',
  feeChoice: 'LOW',
  amountMicros: 1_000_000n,
  feeMicros: 20_000n,
  state: 'sent',
  txHash: `0x${'ab'.repeat(32)}`,
  failureReason: null,
  reportId: null,
  beneficiary: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  payout: {
    state: 'cancelling',
    reason: 'ops (adm_1): stuck',
    fromAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    nonce: 1042n,
    blockNumber: null,
    blockHash: null,
    gasUsed: null,
    effectiveGasPriceWei: null,
    gasCostWei: null,
  },
};

describe('a payout as the operator API shows it', () => {
  it('names the states the service has, no more, no fewer (the contract cannot import them)', () => {
    expect(PAYOUT_VIEW_STATES).toEqual(PAYOUT_STATES);
  });

  it('carries the withdrawal, its partner-facing state, where its payout stands, the wallet and nonce it holds', () => {
    expect(toPayoutView(withdrawal)).toEqual({
      withdrawal_id: 42,
      network: 'MATIC',
      state: 'sent',
      payout_state: 'cancelling',
      reason: 'ops (adm_1): stuck',
      from_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      nonce: 1042,
      tx_hash: `0x${'ab'.repeat(32)}`,
    });
    expect(
      toPayoutView({ ...withdrawal, txHash: null, payout: { ...withdrawal.payout, state: 'queued', fromAddress: null, nonce: null } }),
    ).toMatchObject({
      payout_state: 'queued',
      from_address: null,
      nonce: null,
      tx_hash: null,
    });
  });
});
