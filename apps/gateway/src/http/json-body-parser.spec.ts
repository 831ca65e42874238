import Fastify, { FastifyInstance } from 'fastify';
import { installJsonBodyParser } from './json-body-parser';

// The parser alone, on a bare Fastify: what each body reaches a route as. (The whole gateway with it,
// families' error bodies included: gateway.int.spec.ts and apps/e2e.)
describe('installJsonBodyParser', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    installJsonBodyParser(app);
    for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
      app.route({ method, url: '/echo', handler: async (request) => ({ body: request.body === undefined ? 'absent' : request.body }) });
    }
    for (const url of ['/provider/raw', '/partner/raw']) app.post(url, async (request) => ({ raw: request.rawBody ?? 'absent' }));
    await app.ready();
  });
  afterAll(() => app.close());

  const send = (payload: string, contentType = 'application/json', method: 'POST' | 'PATCH' | 'DELETE' = 'PATCH') =>
    app.inject({ method, url: '/echo', headers: { 'content-type': contentType }, payload });

  it.each(['POST', 'PATCH', 'DELETE'] as const)('takes an empty %s body with a JSON content type as no body', async (method) => {
    const res = await send('', 'application/json', method);
    expect([res.statusCode, res.json()]).toEqual([200, { body: 'absent' }]);
  });

  it('does so with a charset parameter too', async () => {
    const res = await send('', 'application/json; charset=utf-8');
    expect([res.statusCode, res.json()]).toEqual([200, { body: 'absent' }]);
  });

  it('parses JSON as before', async () => {
    expect((await send('{}')).json()).toEqual({ body: {} });
    expect((await send('{"a":[1,"x"]}')).json()).toEqual({ body: { a: [1, 'x'] } });
  });

  it.each(['{', ' ', '{"a":1}}', 'null,'])('still refuses the malformed body %p with 400', async (payload) => {
    const res = await send(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
  });

  it('keeps the body as sent on /provider/ routes only (the Pix provider signs those bytes)', async () => {
    const payload = '{ "b": 1,\n  "a": "ç" }';
    const raw = (url: string) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    expect((await raw('/provider/raw')).json()).toEqual({ raw: payload });
    expect((await raw('/partner/raw')).json()).toEqual({ raw: 'absent' });
  });

  it('still refuses prototype poisoning (secure-json-parse, as Fastify does by default)', async () => {
    expect((await send('{"__proto__":{"admin":true}}')).statusCode).toBe(400);
    expect((await send('{"constructor":{"prototype":{"admin":true}}}')).statusCode).toBe(400);
  });

  it('installs nothing for other content types: they stay unsupported', async () => {
    expect((await send('', 'application/xml')).statusCode).toBe(415);
  });
});
