import { parseGwei } from 'viem';
import { feesFor, replacementFees } from './payout-fees';
import { FeeMarket } from '../hot-wallets/payout-rail';

const market = (baseGwei: string, tips: [string, string, string]): FeeMarket => ({
  nextBaseFeeWei: parseGwei(baseGwei),
  priorityFeeWei: { LOW: parseGwei(tips[0]), MEDIUM: parseGwei(tips[1]), HIGH: parseGwei(tips[2]) },
});

describe('feesFor', () => {
  it("offers the choice's priority fee and twice the next base fee plus it", () => {
    expect(feesFor(market('10', ['1', '2', '5']), 'MEDIUM', parseGwei('100'))).toEqual({
      maxFeePerGas: parseGwei('22'),
      maxPriorityFeePerGas: parseGwei('2'),
    });
    expect(feesFor(market('10', ['1', '2', '5']), 'HIGH', parseGwei('100'))?.maxPriorityFeePerGas).toBe(parseGwei('5'));
  });

  it('lowers the max fee to the cap, and waits (null) when the next block alone would cost more than the cap', () => {
    expect(feesFor(market('40', ['1', '2', '5']), 'LOW', parseGwei('60'))).toEqual({
      maxFeePerGas: parseGwei('60'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
    expect(feesFor(market('59', ['1', '2', '5']), 'MEDIUM', parseGwei('60'))).toBeNull();
  });
});

describe('replacementFees', () => {
  const previous = { maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('2') };

  it('raises both fields by at least 10 %, more when the market asks more', () => {
    const quiet = replacementFees(previous, market('1', ['0', '0', '0']), 'LOW', parseGwei('100'));
    expect(quiet?.maxFeePerGas).toBeGreaterThanOrEqual((previous.maxFeePerGas * 11n) / 10n);
    expect(quiet?.maxPriorityFeePerGas).toBeGreaterThanOrEqual((previous.maxPriorityFeePerGas * 11n) / 10n);
    const busy = replacementFees(previous, market('30', ['1', '8', '9']), 'MEDIUM', parseGwei('100'));
    expect(busy).toEqual({ maxFeePerGas: parseGwei('68'), maxPriorityFeePerGas: parseGwei('8') });
  });

  it('raises from a zero tip too (nodes refuse a replacement that does not raise it)', () => {
    expect(
      replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 0n }, market('0', ['0', '0', '0']), 'LOW', 1000n)?.maxPriorityFeePerGas,
    ).toBe(1n);
  });

  it('is null when the cap leaves no room for a 10 % raise', () => {
    expect(replacementFees(previous, market('1', ['0', '0', '0']), 'LOW', parseGwei('21'))).toBeNull();
  });
});
