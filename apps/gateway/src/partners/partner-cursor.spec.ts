import { decodePartnerCursor, encodePartnerCursor } from './partner-cursor';

describe('partner cursor', () => {
  it('round-trips a position to the millisecond', () => {
    const position = { createdAt: new Date('2026-11-26T03:04:05.678Z'), id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' };
    const cursor = encodePartnerCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePartnerCursor(cursor)).toEqual(position);
  });

  it('refuses what it did not issue', () => {
    for (const text of ['', 'abc', Buffer.from('pa1:12:not-a-uuid').toString('base64url'), Buffer.from('pi1:12').toString('base64url')])
      expect(decodePartnerCursor(text)).toBeNull();
  });
});
