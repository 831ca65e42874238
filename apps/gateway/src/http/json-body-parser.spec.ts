import Fastify, { FastifyInstance } from 'fastify';
import { installJsonBodyParser, poisonedKeyPath } from './json-body-parser';
import { toHttpError } from './http-error.filter';

// The parser alone, on a bare Fastify: what each body reaches a route as. (The whole gateway with it,
// families' error bodies included: gateway.int.spec.ts and tools/e2e.)
describe('installJsonBodyParser', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    installJsonBodyParser(app);
    for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
      app.route({ method, url: '/echo', handler: async (request) => ({ body: request.body === undefined ? 'absent' : request.body }) });
    }
    for (const url of ['/provider/raw', '/partner/raw']) {
      app.post(url, async (request) => (request.rawBody ? { raw: 'kept', bytes: request.rawBody.toString('base64') } : { raw: 'absent' }));
    }
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

  it('keeps the bytes as sent on /provider/ routes only (the Pix provider signs those bytes), escapes and raw UTF-8 alike', async () => {
    const payload = Buffer.from('{ "b": 1,\n  "a": "ç", "c": "Jo\\u00e3o" }', 'utf8');
    const raw = (url: string) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    const kept = (await raw('/provider/raw')).json<{ raw: string; bytes: string }>();
    expect(Buffer.from(kept.bytes, 'base64').equals(payload)).toBe(true);
    expect((await raw('/partner/raw')).json()).toEqual({ raw: 'absent' });
  });

  it('refuses a body that is not UTF-8 with 400, as malformed JSON (no U+FFFD in its place)', async () => {
    const latin1 = Buffer.from('{"a":"Jo\u00e3o"}', 'latin1');
    const res = await app.inject({ method: 'PATCH', url: '/echo', headers: { 'content-type': 'application/json' }, payload: latin1 });
    expect([res.statusCode, res.json().code]).toEqual([400, 'FST_ERR_CTP_INVALID_JSON_BODY']);
  });

  it('parses UTF-8 text, a byte order mark included, as before', async () => {
    expect((await send('{"a":"João 😀"}')).json()).toEqual({ body: { a: 'João 😀' } });
    expect((await send('\uFEFF{"a":1}')).json()).toEqual({ body: { a: 1 } });
  });

  it.each([
    ['{"__proto__":{"admin":true}}', '__proto__', '__proto__'],
    ['{"a":1,"receiver_key":{"__proto__":1}}', 'receiver_key', 'receiver_key.__proto__'],
    ['{"a":{"b":[{"c":{"__proto__":null}}]}}', 'a.b.0.c', 'a.b.0.c.__proto__'],
    ['{"constructor":{"prototype":{"admin":true}}}', 'constructor', 'constructor.prototype'],
    ['{"receiver_account":{"constructor":{"prototype":1}}}', 'receiver_account.constructor', 'receiver_account.constructor.prototype'],
  ])(
    'still refuses prototype poisoning %s (secure-json-parse, as Fastify does by default): 400 invalid_request naming where, not "not JSON"',
    async (payload, field, path) => {
      const guarded = Fastify();
      installJsonBodyParser(guarded);
      guarded.setErrorHandler((error, _request, reply) => {
        const { status, detail } = toHttpError(error);
        void reply.status(status).send(detail);
      });
      guarded.post('/echo', async (request) => ({ body: request.body }));
      try {
        const res = await guarded.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
        expect([res.statusCode, res.json()]).toEqual([400, { code: 'invalid_request', field, message: expect.stringContaining(path) }]);
      } finally {
        await guarded.close();
      }
    },
  );

  it('finds a poisoned key at any depth without recursing (a body may nest deeper than the stack)', () => {
    let deep: unknown = JSON.parse('{"__proto__":1}');
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(poisonedKeyPath(deep)).toBe(`${Array(100_000).fill('0').join('.')}.__proto__`);
    expect(poisonedKeyPath({ constructor: 'x', a: { constructor: { name: 1 } } })).toBeUndefined();
  });

  it('installs nothing for other content types: they stay unsupported', async () => {
    expect((await send('', 'application/xml')).statusCode).toBe(415);
  });
});
