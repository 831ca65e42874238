import { validateContract } from '@partner/validation';
import { decodeEventsCursor, encodeEventsCursor, ListEventsRequest } from './list-events.query';

describe('events cursor', () => {
  it('round-trips a sequence through an opaque base64url string', () => {
    for (const n of [0, 1, 99, 123_456_789_012]) {
      const cursor = encodeEventsCursor(n);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeEventsCursor(cursor)).toBe(n);
    }
  });

  it('refuses anything it did not issue', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    for (const bad of [
      '',
      'not a cursor',
      b64('-1'),
      b64('1.5'),
      b64('007'),
      b64('abc'),
      b64('99999999999999999'),
      `${encodeEventsCursor(5)}=`,
      5,
      null,
    ]) {
      expect(decodeEventsCursor(bad)).toBeUndefined();
    }
  });
});

describe('ListEventsRequest', () => {
  it('accepts the type filter and a cursor', () => {
    const result = validateContract(ListEventsRequest, { type: 'pix_in', cursor: encodeEventsCursor(7), limit: '5', delivered: 'false' });
    expect(result).toEqual({ ok: true, value: { type: 'pix_in', cursor: encodeEventsCursor(7), limit: 5, delivered: false } });
  });

  it.each([
    [{ type: 'withdrawal' }, 'type'],
    [{ cursor: 'garbage!' }, 'cursor'],
  ])('refuses %j naming the field', (query, field) => {
    expect(validateContract(ListEventsRequest, query)).toMatchObject({ ok: false, error: { code: 'invalid_request', field } });
  });
});
