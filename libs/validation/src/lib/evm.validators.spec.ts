import fc from 'fast-check';
import { getAddress, isAddress, zeroAddress } from 'viem';
import { isEvmAddress } from './evm.validators';

/** The validator as it was on viem (a development dependency now): the reference every answer is held to. */
function onViem(value: unknown): boolean {
  if (typeof value !== 'string' || value.toLowerCase() === zeroAddress) return false;
  const hex = value.slice(2);
  return isAddress(value, { strict: hex !== hex.toUpperCase() });
}

const hexDigits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

/** Every spelling that matters of one address: lower, upper, EIP-55, EIP-55 with one letter's case flipped, any mix. */
const spellings = fc
  .tuple(hexDigits(40), fc.nat(39), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
  .map(([lower, at, upper]) => {
    const checksummed = getAddress(`0x${lower}`);
    const flip = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
    const oneFlipped = `${checksummed.slice(0, 2 + at)}${flip(checksummed[2 + at])}${checksummed.slice(3 + at)}`;
    const mixed = `0x${[...lower].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}`;
    return [`0x${lower}`, `0x${lower.toUpperCase()}`, checksummed, oneFlipped, mixed];
  });

describe('isEvmAddress', () => {
  it('answers as viem did for every spelling of random addresses', () => {
    fc.assert(
      fc.property(spellings, (values) => {
        for (const value of values) expect([value, isEvmAddress(value)]).toEqual([value, onViem(value)]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('answers as viem did for malformed text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          hexDigits(39).map((h) => `0x${h}`),
          hexDigits(41).map((h) => `0x${h}`),
          hexDigits(40),
          hexDigits(40).map((h) => `0X${h}`),
        ),
        (value) => {
          expect(isEvmAddress(value)).toBe(onViem(value));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it.each<[unknown, boolean, string]>([
    ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', true, 'EIP-55 checksummed'],
    ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045', true, 'all lower case: no checksum'],
    ['0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045', true, 'all upper case: no checksum'],
    ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046', false, "another address spelt with the first one's checksum"],
    ['0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045', false, 'one letter of a checksummed address in the wrong case'],
    ['0x0000000000000000000000000000000000000000', false, 'the zero address'],
    ['0xd8da6bf26964af9d7eed9e03e53415d37aa9604', false, '39 digits'],
    ['d8da6bf26964af9d7eed9e03e53415d37aa96045', false, 'no 0x'],
    [42, false, 'not text'],
  ])('%s: %s (%s)', (value, expected) => {
    expect(isEvmAddress(value)).toBe(expected);
    expect(onViem(value)).toBe(expected);
  });
});
