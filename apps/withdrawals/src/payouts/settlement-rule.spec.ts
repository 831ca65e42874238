import { MinedReceipt, TransferLog } from '../hot-wallets/payout-rail';
import { transferMismatch, usdtMoved } from './settlement-rule';

const TOKEN = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const WALLET = '0x1111111111111111111111111111111111111111';
const USER = '0x2222222222222222222222222222222222222222';
const expected = { token: TOKEN, from: WALLET, to: USER, micros: 1_500_000n };
const transfer = (t: Partial<TransferLog> = {}): TransferLog => ({ token: TOKEN, from: WALLET, to: USER, value: 1_500_000n, ...t });
const receipt = (transfers: TransferLog[], succeeded = true): MinedReceipt => ({
  txHash: '0xabc',
  blockNumber: 7n,
  blockHash: '0xdef',
  succeeded,
  gasUsed: 50_000n,
  effectiveGasPriceWei: 1n,
  transfers,
});

describe('transferMismatch', () => {
  it('accepts exactly one Transfer of the amount from the wallet to the address, whatever the case of the addresses', () => {
    expect(
      transferMismatch(receipt([transfer({ to: USER.toUpperCase().replace('0X', '0x') as `0x${string}` })]), expected),
    ).toBeUndefined();
  });

  it.each([
    ['no transfer', []],
    ['another amount', [transfer({ value: 1_500_001n })]],
    ['another destination', [transfer({ to: WALLET })]],
    ['from another sender', [transfer({ from: USER })]],
    ['the transfer twice', [transfer(), transfer()]],
    ['the transfer and another one', [transfer(), transfer({ to: WALLET, value: 1n })]],
  ])('refuses %s, saying what moved', (_, transfers) => {
    expect(transferMismatch(receipt(transfers), expected)).toMatch(/^0xabc moved .*; the books say 1500000 to 0x2222/);
  });

  it("ignores other tokens' transfers", () => {
    const other = transfer({ token: '0x3333333333333333333333333333333333333333', value: 9n });
    expect(transferMismatch(receipt([other, transfer()]), expected)).toBeUndefined();
    expect(usdtMoved(receipt([other], false), TOKEN)).toBe(false);
    expect(usdtMoved(receipt([transfer()], false), TOKEN)).toBe(true);
  });
});
