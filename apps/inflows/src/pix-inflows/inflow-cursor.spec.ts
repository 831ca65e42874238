import { decodeCursor, encodeCursor } from './inflow-cursor';

describe('inflow cursor', () => {
  it.each([1n, 42n, 9_223_372_036_854_775_807n])('gives back the id it was made from (%p)', (id) => {
    expect(decodeCursor(encodeCursor(id))).toBe(id);
  });

  it('is opaque and URL-safe', () => {
    const cursor = encodeCursor(123n);
    expect(cursor).not.toContain('123');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    '',
    'abc',
    Buffer.from('123').toString('base64url'),
    Buffer.from('pi1:-1').toString('base64url'),
    Buffer.from('pi1:1x').toString('base64url'),
  ])('refuses %p, which it never issued', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});
