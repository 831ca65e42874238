import { LIST_EVENTS_EXAMPLE } from '@partner/contracts';
import { ResponseContract } from './response-contract';

// The checker the e2e run relies on, against the committed document: it must accept what the API
// answers and refuse what the document does not describe, or the e2e contract check proves nothing.
const contract = ResponseContract.fromFile();
const json = (extra: Record<string, string> = {}) =>
  new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1', ...extra });
const check = (method: string, path: string, status: number, body: unknown, headers = json()) =>
  contract.violations(method, path, status, headers, body === undefined ? '' : JSON.stringify(body));

describe('ResponseContract (against docs/openapi.json)', () => {
  it('accepts documented answers: successes, errors in each family shape, an error with request_id', () => {
    expect(check('POST', '/partner/v1/withdrawals/usdt', 201, { id: 1 })).toEqual([]);
    expect(check('POST', '/partner/v1/withdrawals/usdt', 200, { id: 1 })).toEqual([]);
    expect(check('POST', '/partner/v1/withdrawals/usdt', 422, { error: 'insufficient_funds', message: 'x' })).toEqual([]);
    expect(
      check('POST', '/partner/v1/withdrawals/usdt', 400, { error: 'invalid_address', message: 'x', field: 'address', request_id: 'r-1' }),
    ).toEqual([]);
    expect(
      check('DELETE', '/partner/v1/pix-key/52998224725', 400, { status: 'invalid_document', message: 'x', field: 'document' }),
    ).toEqual([]);
    expect(check('DELETE', '/partner/v1/pix-key/52998224725', 200, { status: 'succeeded' })).toEqual([]);
    expect(check('POST', '/partner/v1/pix-key', 401, { error: 'unauthorized', message: 'x' })).toEqual([]);
    expect(check('GET', '/partner/v1/events', 200, LIST_EVENTS_EXAMPLE)).toEqual([]);
    expect(check('PATCH', '/partner/v1/events/083184ea-7464-4d6f-b488-3b13550f619d', 200, {})).toEqual([]);
    expect(check('GET', '/partner/v1/events', 429, { error: 'rate_limited', message: 'x' }, json({ 'retry-after': '1' }))).toEqual([]);
  });

  it('finds an undocumented status, a wrong or extra field, a code of another status or family, a missing header', () => {
    expect(check('POST', '/partner/v1/withdrawals/usdt', 418, { id: 1 })).toEqual([
      expect.stringContaining('status 418 is not documented'),
    ]);
    expect(check('POST', '/partner/v1/withdrawals/usdt', 201, { id: '1' })).toEqual([expect.stringContaining('/id must be integer')]);
    expect(check('POST', '/partner/v1/withdrawals/usdt', 201, { id: 1, created: true })).toEqual([expect.stringContaining('(created)')]);
    expect(check('POST', '/partner/v1/withdrawals/usdt', 400, { error: 'insufficient_funds', message: 'x' })).toEqual([
      expect.stringContaining('body does not match'),
    ]);
    expect(check('POST', '/partner/v1/pix-key', 409, { error: 'already_exists', message: 'x' })).toEqual([
      expect.stringContaining('body does not match'),
    ]);
    expect(check('POST', '/partner/v1/pix-key', 202, { status: 'succeeded' })).toEqual([expect.stringContaining('body does not match')]);
    expect(check('GET', '/partner/v1/events', 429, { error: 'rate_limited', message: 'x' })).toEqual([
      expect.stringContaining('header Retry-After'),
    ]);
    expect(check('POST', '/partner/v1/withdrawals/usdt', 201, { id: 1 }, new Headers({ 'content-type': 'application/json' }))).toEqual([
      expect.stringContaining('header X-Request-Id'),
    ]);
    expect(
      check('GET', '/partner/v1/events', 200, LIST_EVENTS_EXAMPLE, new Headers({ 'content-type': 'text/plain', 'x-request-id': 'r-1' })),
    ).toEqual([expect.stringContaining('content-type text/plain')]);
  });

  it("checks each event's data by its type", () => {
    const [withdrawal, pixKey] = LIST_EVENTS_EXAMPLE.events;
    const { fee_micros: _dropped, ...withoutFee } = withdrawal.data as Record<string, unknown>;
    expect(check('GET', '/partner/v1/events', 200, { ...LIST_EVENTS_EXAMPLE, events: [{ ...withdrawal, data: withoutFee }] })).toEqual([
      expect.stringContaining("must have required property 'fee_micros'"),
    ]);
    // A Pix key event carrying a withdrawal's data: wrong for its type.
    expect(check('GET', '/partner/v1/events', 200, { ...LIST_EVENTS_EXAMPLE, events: [{ ...pixKey, data: withdrawal.data }] })).toEqual([
      expect.stringContaining('body does not match'),
    ]);
    expect(check('GET', '/partner/v1/events', 200, { ...LIST_EVENTS_EXAMPLE, events: [{ ...pixKey, type: 'unknown_type' }] })).toEqual([
      expect.stringContaining('body does not match'),
    ]);
  });

  it('finds the operation by path template, literal segments first, and holds unknown routes to a 404 in an error shape', () => {
    expect(contract.operationOf('POST', '/partner/v1/events/ack')?.template).toBe('/partner/v1/events/ack');
    expect(contract.operationOf('PATCH', '/partner/v1/events/ack')?.template).toBe('/partner/v1/events/{id}');
    expect(contract.operationOf('PUT', '/partner/v1/withdrawals/usdt')).toBeUndefined();
    expect(check('GET', '/partner/v1/nothing-here', 404, { error: 'not_found', message: 'x' })).toEqual([]);
    expect(check('GET', '/partner/v1/pix-key/a/b', 404, { status: 'not_found', message: 'x' })).toEqual([]);
    expect(check('GET', '/partner/v1/nothing-here', 200, {})).toEqual([expect.stringContaining('no operation in the document')]);
  });
});
