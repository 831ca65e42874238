import { validateContract } from '@partner/validation';
import { ListBusinessCustomersRequest } from '../customers/list-business-customers/list-business-customers.query';
import { ListPixKeysRequest } from '../pix-keys/list-pix-keys/list-pix-keys.query';
import { ListWithdrawalsRequest } from '../withdrawals/list-withdrawals/list-withdrawals.query';
import { decodeListCursor, encodeListCursor, listScope, pageOf, pageRequestOf } from './list-page';

const PARTNER = '0b7e4c1a-7f0e-4e36-9a55-3d1f7c2b8e90';
const OTHER_PARTNER = '6a1f1d0e-2b3c-4d5e-8f90-1a2b3c4d5e6f';
const KEY_ID = '468a9958-1d7a-4768-b9e5-c8ec39345f76';

describe('list cursor', () => {
  const scope = listScope('withdrawals', PARTNER, ['52998224725', undefined]);

  it('round-trips a position and its scope through an opaque base64url string', () => {
    for (const position of [
      { atMs: 0, id: '1' },
      { atMs: 1_795_315_285_123, id: '9007199254740991' },
      { atMs: 1_795_315_285_000, id: KEY_ID },
    ]) {
      const cursor = encodeListCursor(position, scope);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeListCursor(cursor)).toEqual({ ...position, scope });
    }
  });

  it('refuses anything a list did not issue', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    const good = encodeListCursor({ atMs: 5, id: '7' }, scope);
    for (const bad of [
      '',
      'garbage!',
      b64('5:7'),
      b64(`05:7:${scope}`),
      b64(`5:07:${scope}`),
      b64(`5:7:${scope.toUpperCase()}`),
      b64(`-5:7:${scope}`),
      b64(`5:abc:${scope}`),
      `${good}A`,
      5,
      null,
    ]) {
      expect(decodeListCursor(bad)).toBeUndefined();
    }
  });

  it('binds the scope to the list, the partner and every filter', () => {
    const scopes = [
      listScope('withdrawals', PARTNER, ['52998224725', undefined]),
      listScope('withdrawals', OTHER_PARTNER, ['52998224725', undefined]),
      listScope('withdrawals', PARTNER, [undefined, '52998224725']),
      listScope('withdrawals', PARTNER, ['52998224725', 'sent']),
      listScope('pix_keys', PARTNER, ['52998224725', undefined]),
    ];
    expect(new Set(scopes).size).toBe(scopes.length);
    expect(listScope('withdrawals', PARTNER, ['52998224725', undefined])).toBe(scopes[0]);
  });
});

describe('pageRequestOf', () => {
  const scope = listScope('pix_keys', PARTNER, []);

  it('is the first page of DEFAULT size without a cursor, and resumes after the cursor of the same listing', () => {
    expect(pageRequestOf({}, scope, 'uuid')).toEqual({ limit: 100 });
    const cursor = encodeListCursor({ atMs: 1000, id: KEY_ID }, scope);
    expect(pageRequestOf({ limit: 5, cursor }, scope, 'uuid')).toEqual({ limit: 5, after: { atMs: 1000, id: KEY_ID } });
  });

  it("refuses a cursor of another partner's or another filter's listing, or with another list's kind of id", () => {
    const foreign = encodeListCursor({ atMs: 1000, id: KEY_ID }, listScope('pix_keys', OTHER_PARTNER, []));
    expect(pageRequestOf({ cursor: foreign }, scope, 'uuid')).toBeUndefined();
    expect(pageRequestOf({ cursor: encodeListCursor({ atMs: 1000, id: '12' }, scope) }, scope, 'uuid')).toBeUndefined();
    expect(pageRequestOf({ cursor: encodeListCursor({ atMs: 1000, id: KEY_ID }, scope) }, scope, 'integer')).toBeUndefined();
  });
});

describe('pageOf', () => {
  const scope = listScope('withdrawals', PARTNER, []);
  const rows = [3, 2, 1].map((id) => ({ id, at: 1000 }));
  const position = (r: { id: number; at: number }) => ({ atMs: r.at, id: String(r.id) });

  it('keeps the page and points the next cursor at its last item when one more row was read', () => {
    const { items, next_cursor } = pageOf(rows, { limit: 2 }, scope, position, (r) => r.id);
    expect(items).toEqual([3, 2]);
    expect(decodeListCursor(next_cursor)).toEqual({ atMs: 1000, id: '2', scope });
  });

  it('answers a null next_cursor on the last page', () => {
    expect(pageOf(rows, { limit: 3 }, scope, position, (r) => r.id)).toEqual({ items: [3, 2, 1], next_cursor: null });
    expect(pageOf([], { limit: 3 }, scope, position, (r) => r.id)).toEqual({ items: [], next_cursor: null });
  });
});

describe('list requests', () => {
  it('accept their filters and paging, converting limit', () => {
    expect(
      validateContract(ListWithdrawalsRequest, {
        limit: '10',
        document: '52998224725',
        state: 'sent',
        created_from: '2026-11-01T00:00:00Z',
        created_to: '2026-11-02T00:00:00-03:00',
      }),
    ).toEqual({
      ok: true,
      value: {
        limit: 10,
        document: '52998224725',
        state: 'sent',
        created_from: '2026-11-01T00:00:00Z',
        created_to: '2026-11-02T00:00:00-03:00',
      },
    });
    expect(validateContract(ListPixKeysRequest, { status: 'canceled', document: '52998224725' })).toMatchObject({ ok: true });
    expect(validateContract(ListBusinessCustomersRequest, { cnpj: '12ABC34501DE35', external_id: 'acme-001' })).toMatchObject({ ok: true });
  });

  it.each([
    [ListWithdrawalsRequest, { limit: '0' }, 'invalid_request', 'limit'],
    [ListWithdrawalsRequest, { limit: '1001' }, 'invalid_request', 'limit'],
    [ListWithdrawalsRequest, { cursor: 'garbage!' }, 'invalid_request', 'cursor'],
    [ListWithdrawalsRequest, { document: '12345678900' }, 'invalid_request', 'document'],
    [ListWithdrawalsRequest, { state: 'pending' }, 'invalid_request', 'state'],
    [ListWithdrawalsRequest, { created_from: '2026-11-01' }, 'invalid_request', 'created_from'],
    [ListWithdrawalsRequest, { created_to: 'yesterday' }, 'invalid_request', 'created_to'],
    [ListWithdrawalsRequest, { status: 'sent' }, 'invalid_request', 'status'],
    [ListPixKeysRequest, { status: 'active' }, 'invalid_request', 'status'],
    [ListPixKeysRequest, { document: '1111111111' }, 'invalid_document', 'document'],
    [ListBusinessCustomersRequest, { cnpj: '12345678000100' }, 'invalid_cnpj', 'cnpj'],
    [ListBusinessCustomersRequest, { external_id: ' ' }, 'invalid_request', 'external_id'],
    [ListBusinessCustomersRequest, { external_id: 'x'.repeat(129) }, 'invalid_request', 'external_id'],
  ] as const)('%p refuses %j with %s naming %s', (cls, query, code, field) => {
    expect(validateContract(cls as new () => object, query)).toMatchObject({ ok: false, error: { code, field } });
  });
});
