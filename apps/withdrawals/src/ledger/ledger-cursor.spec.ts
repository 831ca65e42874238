import { decodeLedgerCursor, decodeUserCursor, encodeLedgerCursor, encodeUserCursor } from './ledger-cursor';

describe('operator listing cursors', () => {
  it('round-trip', () => {
    expect(decodeLedgerCursor(encodeLedgerCursor(42))).toBe(42);
    expect(decodeUserCursor(encodeUserCursor('52998224725'))).toBe('52998224725');
  });

  it('refuse what they did not issue, and each other', () => {
    expect(decodeLedgerCursor(encodeUserCursor('52998224725'))).toBeNull();
    expect(decodeUserCursor(encodeLedgerCursor(42))).toBeNull();
    for (const text of [
      '',
      'x',
      Buffer.from('le1:0').toString('base64url'),
      Buffer.from('le1:-3').toString('base64url'),
      Buffer.from('us1:123').toString('base64url'),
    ]) {
      expect(decodeLedgerCursor(text)).toBeNull();
      expect(decodeUserCursor(text)).toBeNull();
    }
  });
});
