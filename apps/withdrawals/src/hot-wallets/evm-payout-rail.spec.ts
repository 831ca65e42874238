import { classifyRefusal, EvmPayoutRail, isTransportFailure } from './evm-payout-rail';

describe('classifyRefusal', () => {
  it.each([
    ['already known', 'known'],
    ['known transaction: 0xabc', 'known'],
    ['nonce too low: next nonce 7, tx nonce 6', 'nonce_used'],
    ['replacement transaction underpriced', 'underpriced'],
    ['transaction underpriced: tip needed 25000000000, tip permitted 1', 'underpriced'],
    ['max fee per gas less than block base fee', 'underpriced'],
    ['insufficient funds for gas * price + value', 'refused'],
  ])('%s is %s', (message, kind) => {
    expect(classifyRefusal(message)).toBe(kind);
  });
});

describe('EvmPayoutRail', () => {
  it("encodes USDT's transfer(address,uint256) call", () => {
    const rail = new EvmPayoutRail({
      network: 'ETH',
      rpcUrl: 'http://127.0.0.1:1',
      token: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      finality: 'finalized',
      maxHeadAgeS: 60,
      minPriorityFeeWei: 0n,
      timeoutMs: 100,
    });
    expect(rail.transferData('0x1111111111111111111111111111111111111111', 1_234_567n)).toBe(
      '0xa9059cbb' + '1111111111111111111111111111111111111111'.padStart(64, '0') + (1_234_567).toString(16).padStart(64, '0'),
    );
  });

  it('lets an unreachable node fail the call (the round waits), never answering a made-up value', async () => {
    const rail = new EvmPayoutRail({
      network: 'MATIC',
      rpcUrl: 'http://127.0.0.1:1',
      token: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
      finality: 3,
      maxHeadAgeS: 60,
      minPriorityFeeWei: 0n,
      timeoutMs: 500,
    });
    await expect(rail.chainId()).rejects.toThrow();
    await expect(rail.broadcast(['0x02', '0x03'])).rejects.toThrow();
    // Told apart from a node that answered: a start-up check then waits instead of refusing to start.
    const failure = await rail.tokenDecimals().catch((error: unknown) => error);
    expect(isTransportFailure(failure)).toBe(true);
    expect(isTransportFailure(new Error('execution reverted'))).toBe(false);
  });
});
