import { connect, Socket } from 'node:net';
import { pollUntil } from '@partner/testing';
import { FakeServices } from '../fake-services.spec-support';
import { GatewayUnderTest } from '../gateway-app.spec-support';

// Integration: the real gateway listening on a port, and clients that send slowly or go idle, over raw TCP.

const gateway = new GatewayUnderTest({
  bus: new FakeServices(),
  env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_RECEIVE_TIMEOUT_MS: '2000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' },
});
let port: number;

beforeAll(async () => {
  await gateway.start();
  await gateway.app.listen(0, '127.0.0.1');
  port = (gateway.app.getHttpServer().address() as { port: number }).port;
}, 90_000);
afterAll(() => gateway.stop(), 30_000);

/** A raw connection: what it has received so far, and whether the gateway closed it. */
async function rawClient() {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const seen = { text: '', closed: false, at: 0 };
  socket.on('data', (chunk) => (seen.text += chunk.toString('latin1')));
  socket.on('close', () => ((seen.closed = true), (seen.at = Date.now())));
  socket.on('error', () => undefined);
  return { socket, seen };
}

const closed = (seen: { closed: boolean }, what: string) =>
  pollUntil(what, async () => seen.closed, Boolean, { timeoutMs: 6_000, intervalMs: 50 });

describe("the gateway's HTTP timeouts", () => {
  it("answers 408 in the API's error shape and closes a connection whose headers do not come in time", async () => {
    const { socket, seen } = await rawClient();
    const started = Date.now();
    socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n');
    await closed(seen, 'the slow-headers connection closed');
    expect(seen.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(seen.text).toContain('"error":"invalid_request"');
    expect(seen.at - started).toBeGreaterThanOrEqual(900);
  });

  it('answers 408 and closes a connection whose body does not come in time', async () => {
    const { socket, seen } = await rawClient();
    socket.write(
      'POST /partner/v1/withdrawals/usdt HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    await closed(seen, 'the slow-body connection closed');
    expect(seen.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive connection once idle past HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { socket, seen } = await rawClient();
    socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n');
    await pollUntil(
      'the answer',
      async () => seen.text,
      (t) => t.includes('\r\n\r\n'),
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(seen.text).toMatch(/^HTTP\/1\.1 200 /);
    const answered = Date.now();
    await closed(seen, 'the idle connection closed');
    expect(seen.at - answered).toBeGreaterThanOrEqual(800);
  });
});
