import { ConfirmingRail } from './confirming-rail';
import { MinedReceipt, PayoutRail, ReceiptInDoubt } from './payout-rail';

const mined: MinedReceipt = {
  txHash: '0xabc',
  blockNumber: 7n,
  blockHash: '0xdef',
  succeeded: true,
  gasUsed: 50_000n,
  effectiveGasPriceWei: 1n,
  transfers: [{ token: '0xdAC17F958D2ee523a2206206994597C13D831ec7', from: '0x1', to: '0x2', value: 5n }],
};

const unasked = (): never => {
  throw new Error('not asked in these specs');
};

/** A node that answers these (the rest is not asked in these specs). */
const node = (answers: {
  receipt?: MinedReceipt | null;
  finalBlock?: bigint;
  health?: string;
  refusal?: string;
  blacklisted?: boolean;
}): PayoutRail => ({
  network: 'ETH',
  token: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  receipt: () => Promise.resolve(answers.receipt ?? null),
  finalBlock: () => Promise.resolve(answers.finalBlock ?? 0n),
  health: () => Promise.resolve(answers.health),
  chainId: unasked,
  genesisHash: unasked,
  tokenDecimals: unasked,
  balances: unasked,
  feeMarket: unasked,
  minedNonce: unasked,
  broadcast: unasked,
  knows: unasked,
  latestBlock: unasked,
  transfersFrom: unasked,
  transferData: unasked,
  simulateTransfer: () => Promise.resolve(answers.refusal),
  blacklisted: () => Promise.resolve(answers.blacklisted ?? false),
});

const doubt = (rail: PayoutRail) => rail.receipt('0xabc').catch((error: unknown) => error);

describe('ConfirmingRail', () => {
  it('gives the receipt both nodes tell alike, and none when neither has one', async () => {
    await expect(new ConfirmingRail(node({ receipt: mined }), node({ receipt: { ...mined } })).receipt('0xabc')).resolves.toEqual(mined);
    await expect(new ConfirmingRail(node({}), node({})).receipt('0xabc')).resolves.toBeNull();
  });

  it.each([
    ['another status', { ...mined, succeeded: false }],
    ['another block', { ...mined, blockHash: '0x0123' as const }],
    ['another amount', { ...mined, transfers: [{ ...mined.transfers[0], value: 6n }] }],
    ['no transfer', { ...mined, transfers: [] }],
  ])('a receipt with %s on the second node is a disagreement, never an answer', async (_, other) => {
    const error = await doubt(new ConfirmingRail(node({ receipt: mined }), node({ receipt: other })));
    expect(error).toBeInstanceOf(ReceiptInDoubt);
    expect((error as ReceiptInDoubt).kind).toBe('disagreement');
  });

  it('a receipt only one node has yet waits for the other', async () => {
    const error = await doubt(new ConfirmingRail(node({}), node({ receipt: mined })));
    expect((error as ReceiptInDoubt).kind).toBe('lagging');
  });

  it('a block is final when both nodes hold it final; unfit when either is', async () => {
    await expect(new ConfirmingRail(node({ finalBlock: 9n }), node({ finalBlock: 7n })).finalBlock()).resolves.toBe(7n);
    const rail = new ConfirmingRail(node({}), node({ health: 'its node is syncing (eth_syncing is not false)' }));
    await expect(rail.health(new Date())).resolves.toBe('the second node: it is syncing (eth_syncing is not false)');
  });

  it('lets a transfer through the pre-flight only when both nodes do (either refusing refuses it)', async () => {
    const both = new ConfirmingRail(node({}), node({}));
    await expect(both.simulateTransfer('0x1', '0x2', 5n)).resolves.toBeUndefined();
    const second = new ConfirmingRail(node({}), node({ refusal: 'recipient is blacklisted' }));
    await expect(second.simulateTransfer('0x1', '0x2', 5n)).resolves.toBe('recipient is blacklisted');
  });

  it('holds an address blacklisted when either node says the token lists it (a node hiding a listing cannot clear it)', async () => {
    await expect(new ConfirmingRail(node({}), node({})).blacklisted('0x2')).resolves.toBe(false);
    await expect(new ConfirmingRail(node({}), node({ blacklisted: true })).blacklisted('0x2')).resolves.toBe(true);
    await expect(new ConfirmingRail(node({ blacklisted: true }), node({})).blacklisted('0x2')).resolves.toBe(true);
  });
});
