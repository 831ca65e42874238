import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { GatewayPool } from './partner-load';

/** A local HTTP server answering every request with `handler`; answers its base URL. */
function serve(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

/** A port nothing listens on: a server started and closed again. */
async function closedPortUrl(): Promise<string> {
  const { server, url } = await serve(() => undefined);
  await new Promise((resolve) => server.close(resolve));
  return url;
}

describe('GatewayPool (the chaos load as a proxy in front of several gateways sees it)', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  it('sends a request whose connection was refused to the next gateway, as a load balancer does', async () => {
    const { server, url } = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: JSON.parse(body) })));
    });
    servers.push(server);
    const pool = new GatewayPool([await closedPortUrl(), url]);

    const answers = [await pool.send('POST', '/x', {}, { n: 1 }), await pool.send('POST', '/x', {}, { n: 2 })];

    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [201, { echoed: { n: 1 } }],
      [201, { echoed: { n: 2 } }],
    ]);
  });

  it('sends nothing to an instance taken out of rotation for a planned stop, until it is restored', async () => {
    const hits = { a: 0, b: 0 };
    const a = await serve((_req, res) => void (hits.a++, res.end('{}')));
    const b = await serve((_req, res) => void (hits.b++, res.end('{}')));
    servers.push(a.server, b.server);
    const pool = new GatewayPool([a.url, b.url]);
    pool.takeOutOfRotation(a.url);
    for (let i = 0; i < 4; i++) await pool.send('GET', '/x', {});
    expect(hits).toEqual({ a: 0, b: 4 });
    pool.restore(a.url);
    for (let i = 0; i < 4; i++) await pool.send('GET', '/x', {});
    expect(hits).toEqual({ a: 2, b: 6 });
  });

  it('drains an instance taken out of rotation: resolves only once the requests already sent to it are answered', async () => {
    let answer: (() => void) | undefined;
    const slow = await serve((_req, res) => void (answer = () => res.end('{}')));
    servers.push(slow.server);
    const pool = new GatewayPool([slow.url]);
    const sent = pool.send('GET', '/x', {});
    await new Promise<void>((resolve) => slow.server.once('request', () => resolve()));
    pool.takeOutOfRotation(slow.url);
    let drained = false;
    const draining = pool.drained(slow.url).then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    answer?.();
    await Promise.all([sent, draining]);
    expect(drained).toBe(true);
  });

  it('answers status 0 when no gateway accepts the connection', async () => {
    const pool = new GatewayPool([await closedPortUrl(), await closedPortUrl()]);

    expect(await pool.send('GET', '/x', {})).toMatchObject({ status: 0, noAnswer: expect.stringMatching(/^every gateway refused/) });
  });

  it('keeps a 503 and its Retry-After, and does not retry it elsewhere (only a refused connection is)', async () => {
    let hits = 0;
    const { server, url } = await serve((_req, res) => {
      hits++;
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"service_unavailable"}');
    });
    servers.push(server);
    const pool = new GatewayPool([url, url]);

    expect(await pool.send('GET', '/x', {})).toEqual({ status: 503, body: { error: 'service_unavailable' }, retryAfter: '1' });
    expect(hits).toBe(1);
  });

  it('counts a connection reset after the request was sent as no answer (status 0), not as refused', async () => {
    const { server, url } = await serve((req) => req.socket.destroy());
    servers.push(server);
    const { server: other, url: otherUrl } = await serve((_req, res) => res.writeHead(200).end('{}'));
    servers.push(other);
    const pool = new GatewayPool([url, otherUrl]);

    const answer = await pool.send('POST', '/x', {}, {});
    expect(answer.status).toBe(0);
    // The report says which gateway cut it, so a chaos failure can be traced to the instance and the moment.
    expect(answer.noAnswer).toMatch(new RegExp(`^ECONNRESET \\(${url}, after \\d+ ms\\)$`));
  });
});
