import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { drain } from './drain';

/** Connects and resolves once the server has accepted the connection (no byte sent yet). */
function accepted(server: Server, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    server.once('connection', () => resolve(socket));
    const socket = connect(port, '127.0.0.1');
    socket.on('error', reject);
  });
}

/** Sends one request on `socket`; resolves with the status line once the answer has come. */
function ask(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk) => resolve(chunk.toString().split('\r\n')[0]));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve('closed without an answer'));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  });
}

describe('drain: a listener closed for a rolling restart', () => {
  let server: Server;
  let port: number;
  let delayMs: number;

  beforeEach(async () => {
    delayMs = 50;
    server = createServer((_req, res) => setTimeout(() => res.end('ok'), delayMs));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => server.closeAllConnections());

  it('answers a request under way, and one sent on a connection accepted before the drain began', async () => {
    const early = await accepted(server, port);
    const busy = await accepted(server, port);
    const underWay = ask(busy);
    const drained = drain(server, 5_000);
    expect(await ask(early)).toBe('HTTP/1.1 200 OK');
    expect(await underWay).toBe('HTTP/1.1 200 OK');
    await drained;
    expect(server.listening).toBe(false);
  });

  it('refuses new connections at once, so a balancer goes to another instance', async () => {
    const drained = drain(server, 5_000);
    const outcome = await new Promise<string>((resolve) =>
      connect(port, '127.0.0.1')
        .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? ''))
        .on('connect', () => resolve('connected')),
    );
    expect(outcome).toBe('ECONNREFUSED');
    await drained;
  });

  it('answers the next request on an idle keep-alive connection with Connection: close, never resets it', async () => {
    const idle = await accepted(server, port);
    expect(await ask(idle)).toBe('HTTP/1.1 200 OK');
    const drained = drain(server, 5_000);
    const closedByClient = new Promise<void>((resolve) => idle.on('close', () => resolve()));
    const answer = await new Promise<string>((resolve) => {
      idle.once('data', (chunk) => resolve(chunk.toString()));
      idle.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer.toLowerCase()).toContain('connection: close');
    await closedByClient;
    await drained;
    expect(server.listening).toBe(false);
  });

  it('cuts an idle connection and a request still running after maxMs', async () => {
    const idle = await accepted(server, port);
    expect(await ask(idle)).toBe('HTTP/1.1 200 OK');
    const idleClosed = new Promise<void>((resolve) => idle.on('close', () => resolve()));
    delayMs = 60_000;
    const stuck = await accepted(server, port);
    const stuckAnswer = ask(stuck);
    const started = Date.now();
    await drain(server, 300);
    await idleClosed;
    expect(await stuckAnswer).toBe('closed without an answer');
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
