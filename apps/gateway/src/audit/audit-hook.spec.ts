import { AuditedRequest, auditEntryOf } from './audit-hook';

const request = (over: Partial<AuditedRequest>): AuditedRequest => ({
  method: 'DELETE',
  id: 'req-1',
  params: {},
  routeOptions: {},
  ...over,
});
const reply = (statusCode: number) => ({ statusCode });

describe('auditEntryOf', () => {
  it('records the operator, the route pattern, the path parameters, the status and the request id', () => {
    const entry = auditEntryOf(
      request({
        operator: { id: 'o1', name: 'ops', prefix: 'adm_abc' },
        routeOptions: { url: '/admin/v1/partners/:partner_id/api-keys/:key_id' },
        params: { partner_id: 'p1', key_id: 'k1' },
      }),
      reply(200),
    );
    expect(entry).toEqual({
      operatorKeyId: 'o1',
      operatorKeyPrefix: 'adm_abc',
      method: 'DELETE',
      route: '/admin/v1/partners/:partner_id/api-keys/:key_id',
      partnerId: 'p1',
      keyId: 'k1',
      document: null,
      statusCode: 200,
      requestId: 'req-1',
      usdtMicros: null,
      clientAddress: null,
    });
  });

  it("records the amount a call asked to move (a credit's usdt_micros, whole micros only) and the client's address", () => {
    const credit = (body: unknown) =>
      auditEntryOf(
        request({ routeOptions: { url: '/admin/v1/partners/:partner_id/users/:document/credits' }, body, ip: '203.0.113.7' }),
        reply(202),
      );
    expect(credit({ usdt_micros: 25_000_000_000, idempotency_key: 'k', reference: 'r' })).toMatchObject({
      usdtMicros: 25_000_000_000,
      clientAddress: '203.0.113.7',
    });
    for (const body of [{ usdt_micros: 1.5 }, { usdt_micros: '10' }, null, undefined, 'text'])
      expect(credit(body)).toMatchObject({ usdtMicros: null, clientAddress: '203.0.113.7' });
  });

  it('records a refused call without an operator, with its parameters as sent (bounded)', () => {
    const entry = auditEntryOf(
      request({ routeOptions: { url: '/admin/v1/partners/:partner_id/users' }, params: { partner_id: 'x'.repeat(500) } }),
      reply(401),
    );
    expect(entry).toMatchObject({ operatorKeyId: null, operatorKeyPrefix: null, statusCode: 401, partnerId: 'x'.repeat(128) });
  });

  it('keeps no parameter PostgreSQL could not store (a NUL, a lone surrogate): the entry is still written', () => {
    const entry = auditEntryOf(
      request({
        routeOptions: { url: '/admin/v1/partners/:partner_id/users/:document/balance' },
        params: { partner_id: 'a\u0000b', document: '\ud800' },
      }),
      reply(400),
    );
    expect(entry).toMatchObject({ statusCode: 400, partnerId: null, document: null });
  });

  it.each([[undefined], ['/admin/v1/*'], ['/admin/v1']])('calls a path no operator route has (route %p) unmatched', (url) => {
    expect(auditEntryOf(request({ routeOptions: { url }, params: { '*': 'nothing/here' } }), reply(404)).route).toBe('unmatched');
  });
});
