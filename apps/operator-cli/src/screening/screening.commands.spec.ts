import { addressesOf, unixSecondsOf } from './screening.commands';

describe('screening update: the file and the date', () => {
  it('reads one address per line, skipping blank lines and # comments, in the case given', () => {
    const text = '# OFAC SDN, ETH\n0x8589427373D6D84E98730D7795D8f6f8731FDA16\r\n\n  0x722122df12d4e14e13ac3b6895a86e84145b6967  \n';
    expect(addressesOf(text)).toEqual(['0x8589427373D6D84E98730D7795D8f6f8731FDA16', '0x722122df12d4e14e13ac3b6895a86e84145b6967']);
  });

  it('refuses the whole file at its first line that is not an address (so no file is loaded in part), and an empty one', () => {
    expect(() => addressesOf('0x8589427373d6d84e98730d7795d8f6f8731fda16\nbc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6\n')).toThrow(
      'line 2 is not an EVM address: bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6',
    );
    expect(() => addressesOf('# nothing\n\n')).toThrow('the file holds no address');
  });

  it('takes --published-at as a UTC date or a date and time', () => {
    expect(unixSecondsOf('2026-11-28')).toBe(1_795_824_000);
    expect(unixSecondsOf('2024-09-27T00:35:17Z')).toBe(1_727_397_317);
    expect(() => unixSecondsOf('yesterday')).toThrow('--published-at must be a date such as 2026-11-28 (UTC), not yesterday');
  });
});
