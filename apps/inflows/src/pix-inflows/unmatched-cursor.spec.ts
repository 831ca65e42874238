import { decodeUnmatchedCursor, encodeUnmatchedCursor } from './unmatched-cursor';

describe('unmatched inflows cursor', () => {
  it.each([1n, 42n, 9_223_372_036_854_775_807n])('gives back the id it was made from (%p)', (id) => {
    expect(decodeUnmatchedCursor(encodeUnmatchedCursor(id))).toBe(id);
  });

  it.each(['', 'abc', Buffer.from('pi1:12').toString('base64url'), Buffer.from('um1:x').toString('base64url')])(
    'refuses %p, which it never issued',
    (cursor) => expect(decodeUnmatchedCursor(cursor)).toBeNull(),
  );
});
