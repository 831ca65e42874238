import Fastify, { FastifyInstance } from 'fastify';
import { MAX_TEXT_LENGTH } from '@partner/validation';
import { errorBody } from './error-body';
import { toHttpError } from './http-error.filter';
import { installJsonBodyParser } from './json-body-parser';
import { malformedTextOf, refuseMalformedText } from './well-formed-text';

// The hook on a bare Fastify with the gateway's body parser and error rendering (what HttpErrorFilter
// does): what each request answers, and that a refused one never reaches its handler. The whole gateway
// with it: gateway.int.spec.ts; every route, fuzzed: tools/e2e/src/fuzz.spec.ts.
describe('refuseMalformedText', () => {
  let app: FastifyInstance;
  let handled = 0;

  beforeAll(async () => {
    app = Fastify();
    installJsonBodyParser(app);
    refuseMalformedText(app);
    app.setErrorHandler((error, request, reply) => {
      const { status, detail } = toHttpError(error);
      void reply.status(status).send(errorBody(request, detail));
    });
    const handler = async () => {
      handled++;
      return { ok: true };
    };
    app.route({ method: ['GET', 'POST'], url: '/partner/v1/things/:id', handler });
    app.route({ method: ['GET', 'DELETE'], url: '/partner/v1/pix-key/:document', handler });
    app.route({ method: 'GET', url: '/healthz', handler });
    app.route({ method: 'GET', url: '/admin/v1/*', handler: async (_request, reply) => reply.status(404).send({ error: 'not_found' }) });
    await app.ready();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    handled = 0;
  });

  const NUL = '\u0000';
  const LONE = '\uD800';
  const LONG = 'x'.repeat(MAX_TEXT_LENGTH + 1);
  /** JSON text of a value, escapes kept as JSON escapes (JSON.parse turns `"\ud800"` into a lone surrogate). */
  const json = (value: unknown) => JSON.stringify(value);

  const post = (payload: string, url = '/partner/v1/things/1', headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });

  it('lets well-formed text through, Unicode of every plane included', async () => {
    const res = await post(json({ name: 'São Paulo 😀\tlinha\r\n', nested: { list: ['𝄞'] } }), '/partner/v1/things/%C3%A9?q=%F0%9F%98%80', {
      'x-api-key': 'pk_sandbox_abc',
    });
    expect([res.statusCode, handled]).toEqual([200, 1]);
  });

  describe.each([
    ['NUL', NUL, 'holds a control character (U+0000)'],
    ['another C0 control', '\u001F', 'holds a control character (U+001F)'],
    ['a lone surrogate', LONE, 'holds a lone surrogate (U+D800)'],
    ['an overlong string', LONG, `is longer than ${MAX_TEXT_LENGTH} characters`],
  ])('%s', (_kind, bad, problem) => {
    const expectRefused = (res: { statusCode: number; json: () => unknown }, field: string | undefined, message: string) => {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_request', message, ...(field ? { field } : {}), request_id: expect.any(String) });
      expect(handled).toBe(0);
    };

    it('in a body value, however nested: 400 with the field path', async () => {
      expectRefused(
        await post(json({ metadata: { external_id: `a${bad}` } })),
        'metadata.external_id',
        `field metadata.external_id ${problem}`,
      );
      expectRefused(await post(json({ owners: [{ name: 'ok' }, { name: bad }] })), 'owners.1.name', `field owners.1.name ${problem}`);
    });

    it('in a body key: 400 naming the object that holds it', async () => {
      expectRefused(await post(json({ metadata: { [bad]: 1 } })), 'metadata', `a field name in metadata ${problem}`);
      expectRefused(await post(json({ [bad]: 1 })), undefined, `a field name ${problem}`);
    });

    it('in the query string, value or name', async () => {
      const encoded = encodeURIComponent(bad === LONE ? 'x' : bad);
      if (bad !== LONE) {
        expectRefused(
          await app.inject({ method: 'GET', url: `/partner/v1/things/1?cursor=${encoded}` }),
          'cursor',
          `query parameter cursor ${problem}`,
        );
        expectRefused(
          await app.inject({ method: 'GET', url: `/partner/v1/things/1?${encoded}=1` }),
          undefined,
          `a query parameter name ${problem}`,
        );
      } else {
        // A lone surrogate cannot be percent-encoded (no UTF-8 for it): its CESU bytes are decoded as U+FFFD, which is well-formed.
        expect((await app.inject({ method: 'GET', url: '/partner/v1/things/1?cursor=%ED%A0%80' })).statusCode).toBe(200);
      }
    });

    it('in a path parameter, in the family of the path (Pix keys: {status, message})', async () => {
      // Neither reaches a route: a lone surrogate has no percent-encoding, and the router answers 414 for a parameter over 100 characters.
      if (bad === LONE || bad === LONG)
        return expect(malformedTextOf({ headers: {}, params: { document: bad }, query: {}, body: undefined })).toMatchObject({
          field: 'document',
          message: `path parameter document ${problem}`,
        });
      const res = await app.inject({ method: 'GET', url: `/partner/v1/pix-key/${encodeURIComponent(bad)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status: 'invalid_request',
        field: 'document',
        message: `path parameter document ${problem}`,
        request_id: expect.any(String),
      });
      expect(handled).toBe(0);
    });
  });

  it('in a header the API reads: X-API-Key or X-Admin-Key with a tab or overlong (Node refuses the other controls itself)', async () => {
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/partner/v1/things/1', headers });
    const tab = await get({ 'x-api-key': 'pk_sandbox_\tx' });
    expect([tab.statusCode, tab.json()]).toEqual([
      400,
      expect.objectContaining({
        error: 'invalid_request',
        field: 'X-API-Key',
        message: 'header X-API-Key holds a control character (U+0009)',
      }),
    ]);
    const long = await get({ 'x-admin-key': LONG });
    expect([long.statusCode, long.json()]).toEqual([
      400,
      expect.objectContaining({ field: 'X-Admin-Key', message: `header X-Admin-Key is longer than ${MAX_TEXT_LENGTH} characters` }),
    ]);
    expect(handled).toBe(0);
    // A header the API does not read is none of its business.
    expect((await get({ 'x-something': 'a\tb' })).statusCode).toBe(200);
  });

  it('leaves alone what reads nothing: probes, and unknown routes (404 whatever they hold)', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz?x=%00' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/partner/v1/nothing/%00' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/admin/v1/nothing/%00?q=%01' })).statusCode).toBe(404);
  });

  it('checks headers with the header rule and the rest with the JSON one (a tab is fine in a body, not in a key header)', () => {
    expect(malformedTextOf({ headers: {}, params: {}, query: {}, body: { note: 'a\tb' } })).toBeUndefined();
  });
});
