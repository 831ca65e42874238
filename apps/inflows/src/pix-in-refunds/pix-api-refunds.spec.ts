import { valorOf } from './pix-api-refunds';

describe('valorOf: integer cents as the Pix API writes money', () => {
  it.each([
    [1n, '0.01'],
    [10n, '0.10'],
    [789n, '7.89'],
    [2_000n, '20.00'],
    [10_000_000_000n, '100000000.00'],
  ])('%s cents is %s', (cents, valor) => {
    expect(valorOf(cents)).toBe(valor);
    expect(valor).toMatch(/^\d{1,10}\.\d{2}$/);
  });
});
