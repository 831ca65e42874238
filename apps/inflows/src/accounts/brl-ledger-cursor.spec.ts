import { decodeBrlLedgerCursor, encodeBrlLedgerCursor } from './brl-ledger-cursor';

describe('BRL ledger cursor', () => {
  it.each([1, 42, Number.MAX_SAFE_INTEGER])('gives back the id it was made from (%p)', (id) => {
    expect(decodeBrlLedgerCursor(encodeBrlLedgerCursor(id))).toBe(BigInt(id));
  });

  it('is opaque and URL-safe', () => {
    const cursor = encodeBrlLedgerCursor(123);
    expect(cursor).not.toContain('123');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each(['', 'abc', Buffer.from('pi1:12').toString('base64url'), Buffer.from('bl1:-1').toString('base64url')])(
    'refuses %p, which it never issued',
    (cursor) => {
      expect(decodeBrlLedgerCursor(cursor)).toBeNull();
    },
  );
});
