import Fastify, { FastifyInstance } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { httpContext } from '../http/http-context.spec-support';
import { installJsonBodyParser } from '../http/json-body-parser';
import { PixSignatureGuard } from './pix-signature.guard';
import { pixSignature } from './pix-signature';

// The gateway's body parser and the signature guard together, on a bare Fastify over injected bytes: what
// the provider's route checks is the body exactly as it came over the wire. (The whole route with the
// inflows service: tools/e2e/src/pix-provider-ingestion.spec.ts.)
const secret = 'k'.repeat(32);
const PATH = '/provider/v1/pix/inflows';
const raw = Buffer.from('{"sender_name":"João","status":"processing"}', 'utf8');
const escaped = Buffer.from('{"sender_name":"Jo\\u00e3o","status":"processing"}', 'utf8');
/** What a re-serialising verifier would sign: the parsed value written back (raw UTF-8, no escapes). */
const reserialised = (bytes: Buffer) => Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8'))), 'utf8');

describe('PixSignatureGuard over the JSON body parser', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    installJsonBodyParser(app);
    const guard = new PixSignatureGuard({ PIX_PROVIDER_WEBHOOK_SECRET: secret, PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: '' } as GatewayConfig);
    app.post(PATH, async (request, reply) => {
      try {
        guard.canActivate(httpContext(request, reply));
      } catch (error) {
        return reply.status((error as ApiError).status).send((error as ApiError).detail);
      }
      return { body: request.body };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (payload: Buffer, signedBytes: Buffer) => {
    const t = Math.floor(Date.now() / 1000);
    return app.inject({
      method: 'POST',
      url: PATH,
      headers: { 'content-type': 'application/json', 'x-pix-signature': `t=${t},v1=${pixSignature(secret, t, signedBytes)}` },
      payload,
    });
  };

  it.each([
    ['raw UTF-8', raw],
    ['the \\u00e3 escape', escaped],
  ])('lets through a payer name sent as %s, signed over the exact bytes, parsed to the same value', async (_how, bytes) => {
    const res = await post(bytes, bytes);
    expect([res.statusCode, res.json()]).toEqual([200, { body: { sender_name: 'João', status: 'processing' } }]);
  });

  it('refuses (401) the escaped body signed over its re-serialisation: same value, other bytes', async () => {
    expect(reserialised(escaped).equals(escaped)).toBe(false);
    const res = await post(escaped, reserialised(escaped));
    expect([res.statusCode, res.json()]).toEqual([401, { code: 'invalid_signature', message: 'X-Pix-Signature does not match the body' }]);
  });

  it('refuses (401) the raw body signed over its Latin-1 reading (the bytes of a decode in the wrong charset)', async () => {
    const misread = Buffer.from(raw.toString('latin1'), 'utf8');
    expect(misread.equals(raw)).toBe(false);
    expect((await post(raw, misread)).statusCode).toBe(401);
  });

  it('lets through the raw body signed over its re-serialisation: those are the same bytes', async () => {
    expect(reserialised(raw).equals(raw)).toBe(true);
    expect((await post(raw, reserialised(raw))).statusCode).toBe(200);
  });
});
