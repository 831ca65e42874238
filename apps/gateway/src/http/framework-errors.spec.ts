import Fastify, { FastifyError, FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { AddressInfo } from 'node:net';
import { clientErrorHandler, frameworkErrorHandler, MAX_PATH_PARAMETER_LENGTH } from './framework-errors';

/** Sends raw bytes and reads the whole answer (the server closes the connection after a client error). */
function raw(port: number, request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
  });
}

describe('answers given before routing, in the family shape', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({
      frameworkErrors: (error: FastifyError, request, reply) => frameworkErrorHandler(error, request, reply),
      clientErrorHandler,
      routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    });
    app.get('/partner/v1/pix-key/:document', async () => ({ ok: true }));
    app.get('/partner/v1/withdrawals/usdt/:id', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it.each([
    ['/partner/v1/pix-key', { status: 'headers_too_large' }],
    ['/partner/v1/withdrawals/usdt', { error: 'headers_too_large' }],
  ])('a URL over 16 KiB (%s/…) is 431 headers_too_large with a request id, not Fastify’s own body', async (prefix, code) => {
    const res = await raw(port, `GET ${prefix}/${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    const body = JSON.parse(res.body);
    expect(body).toEqual({ ...code, message: 'the request line and headers are longer than 16 KiB', request_id: expect.any(String) });
    expect(res.headers).toContain(`x-request-id: ${body.request_id}`);
  });

  it('bytes that are not HTTP are 400 invalid_request in the {error} shape', async () => {
    const res = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect([res.status, JSON.parse(res.body)]).toEqual([
      400,
      { error: 'invalid_request', message: 'the request is not valid HTTP/1.1', request_id: expect.any(String) },
    ]);
  });

  it(`a path parameter over ${MAX_PATH_PARAMETER_LENGTH} characters is 414 uri_too_long; one of ${MAX_PATH_PARAMETER_LENGTH} reaches the route`, async () => {
    const long = await app.inject({ method: 'GET', url: `/partner/v1/pix-key/${'x'.repeat(MAX_PATH_PARAMETER_LENGTH + 1)}` });
    expect([long.statusCode, long.json()]).toEqual([
      414,
      { status: 'uri_too_long', message: 'a path parameter is longer than 100 characters', request_id: expect.any(String) },
    ]);
    expect(long.headers['x-request-id']).toBe(long.json().request_id);
    expect((await app.inject({ method: 'GET', url: `/partner/v1/pix-key/${'x'.repeat(MAX_PATH_PARAMETER_LENGTH)}` })).statusCode).toBe(200);
  });

  it('a URL that is not valid percent-encoding is 400 invalid_request', async () => {
    const res = await app.inject({ method: 'GET', url: '/partner/v1/withdrawals/usdt/%E0%A4%A' });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { error: 'invalid_request', message: 'the request URL is not valid percent-encoding', request_id: expect.any(String) },
    ]);
  });
});
