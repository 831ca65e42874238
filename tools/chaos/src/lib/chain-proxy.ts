/**
 * A fault-injecting JSON-RPC proxy between the apps and one local chain node (`npm run chaos`). The node
 * is in memory: killed, it would take its chain with it, so its outages are played here instead, while
 * the node itself keeps mining. The apps' CHAIN_RPC_URL_<network> point at the proxy; the audit reads the
 * node directly.
 *
 * Modes, switched at any time:
 * - `pass`: every request forwarded, every answer returned as it came;
 * - `unreachable`: the port is closed and every open connection dropped (a node down, a firewall): a new
 *   connection is refused;
 * - `frozen`: connections accepted, requests read and never answered, nothing forwarded (a hung node);
 * - `slow`: every request forwarded at once and its answer held back for `slowMs` ± `jitterMs` (a node
 *   under load): past the client's deadline, the node has acted and the client never hears of it;
 * - `garbage`: every request forwarded, and a share of the answers (`garbageShare`) replaced by something
 *   no JSON-RPC client can use (an HTML error page, a 502, truncated JSON, an internal error), as a
 *   broken load balancer in front of a node answers: here too the node has acted. Never a well-formed
 *   lie (a wrong nonce, a missing receipt): no client can tell those from the truth.
 *
 * `npm run chaos` runs each proxy in a process of its own (ChainProxyProcess, driven over IPC): in the
 * process that also drives the load, every answer would wait for the load's work, a latency no node has.
 */
import { ChildProcess, fork } from 'node:child_process';
import { Agent, createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { parseArgs } from 'node:util';

export type ProxyMode = 'pass' | 'unreachable' | 'frozen' | 'slow' | 'garbage';

export interface ChainProxyOptions {
  /** Where the proxy listens (127.0.0.1). */
  port: number;
  /** The node's JSON-RPC URL. */
  target: string;
  slowMs?: number;
  jitterMs?: number;
  garbageShare?: number;
}

/** What the proxy did, by mode and outcome. */
export interface ProxyCounts {
  forwarded: number;
  delayed: number;
  garbled: number;
  held: number;
  refused: number;
}

const GARBAGE: Array<(id: unknown) => { status: number; type: string; body: string }> = [
  () => ({ status: 200, type: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
  () => ({ status: 502, type: 'text/plain', body: 'upstream connect error or disconnect/reset before headers' }),
  (id) => ({ status: 200, type: 'application/json', body: `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? 1)},"result":"0x` }),
  (id) => ({
    status: 200,
    type: 'application/json',
    body: JSON.stringify({ jsonrpc: '2.0', id: id ?? 1, error: { code: -32603, message: 'Internal error' } }),
  }),
];

export class ChainProxy {
  readonly url: string;
  readonly counts: ProxyCounts = { forwarded: 0, delayed: 0, garbled: 0, held: 0, refused: 0 };
  private current: ProxyMode = 'pass';
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Requests a frozen node swallowed: dropped when it thaws (their clients gave up long ago). */
  private readonly held = new Set<ServerResponse>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly slowMs: number;
  private readonly jitterMs: number;
  private readonly garbageShare: number;

  constructor(private readonly o: ChainProxyOptions) {
    this.url = `http://127.0.0.1:${o.port}`;
    this.slowMs = o.slowMs ?? 2_500;
    this.jitterMs = o.jitterMs ?? 1_500;
    this.garbageShare = o.garbageShare ?? 0.5;
  }

  get mode(): ProxyMode {
    return this.current;
  }

  async start(): Promise<void> {
    await this.listen();
  }

  /** Switches to `mode`: closes or reopens the port, drops what a frozen node held. */
  async set(mode: ProxyMode): Promise<void> {
    const was = this.current;
    this.current = mode;
    if (mode === 'unreachable' && was !== 'unreachable') await this.close();
    if (mode !== 'unreachable' && was === 'unreachable') await this.listen();
    if (was === 'frozen' && mode !== 'frozen') {
      for (const res of this.held) res.socket?.destroy();
      this.held.clear();
    }
  }

  async stop(): Promise<void> {
    this.current = 'unreachable';
    await this.close();
    this.agent.destroy();
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 5_000;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  /** Closes the port and every connection on it (keep-alive ones included): new connections are refused. */
  private async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.held.clear();
    await closed;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mode = this.current;
      if (mode === 'frozen') {
        this.counts.held++;
        this.held.add(res);
        res.on('close', () => this.held.delete(res));
        return;
      }
      if (mode === 'unreachable') {
        // Arrived on a connection the close is tearing down.
        this.counts.refused++;
        res.socket?.destroy();
        return;
      }
      const body = Buffer.concat(chunks);
      this.forward(req, body).then(
        (answer) => this.answer(res, mode, body, answer),
        () => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('node unreachable');
        },
      );
    });
  }

  private answer(
    res: ServerResponse,
    mode: ProxyMode,
    requestBody: Buffer,
    answer: { status: number; headers: Record<string, string>; body: Buffer },
  ): void {
    const send = () => {
      if (res.destroyed || res.writableEnded) return;
      if (mode === 'garbage' && Math.random() < this.garbageShare) {
        this.counts.garbled++;
        let id: unknown;
        try {
          id = (JSON.parse(requestBody.toString('utf8')) as { id?: unknown }).id;
        } catch {
          id = undefined;
        }
        const g = GARBAGE[Math.floor(Math.random() * GARBAGE.length)](id);
        res.writeHead(g.status, { 'content-type': g.type }).end(g.body);
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    };
    if (mode === 'slow') {
      this.counts.delayed++;
      const delay = Math.max(0, this.slowMs + (Math.random() * 2 - 1) * this.jitterMs);
      setTimeout(send, delay);
    } else {
      send();
    }
  }

  private forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    this.counts.forwarded++;
    const target = new URL(this.o.target);
    return new Promise((resolve, reject) => {
      const out = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          agent: this.agent,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json', 'content-length': body.length },
          timeout: 60_000,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('error', reject);
          answer.on('end', () =>
            resolve({
              status: answer.statusCode ?? 502,
              headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      out.on('timeout', () => out.destroy(new Error('node timeout')));
      out.on('error', reject);
      out.end(body);
    });
  }
}

type ToProxy = { type: 'set'; mode: ProxyMode } | { type: 'counts' };
type FromProxy = { type: 'ready' } | { type: 'done'; counts: ProxyCounts } | { type: 'error'; message: string };

/** A ChainProxy in a child process of its own (this file run with tsx), switched over IPC. */
export class ChainProxyProcess {
  readonly url: string;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly child: ChildProcess,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the proxy process; resolves once it listens. */
  static async start(o: ChainProxyOptions & { cwd: string }): Promise<ChainProxyProcess> {
    const args = ['--port', String(o.port), '--target', o.target];
    if (o.slowMs !== undefined) args.push('--slow-ms', String(o.slowMs));
    if (o.jitterMs !== undefined) args.push('--jitter-ms', String(o.jitterMs));
    if (o.garbageShare !== undefined) args.push('--garbage-share', String(o.garbageShare));
    const child = fork(__filename, args, { cwd: o.cwd, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', (m: FromProxy) =>
        m.type === 'ready' ? resolve() : reject(new Error(`chain proxy on :${o.port}: ${JSON.stringify(m)}`)),
      );
      child.once('exit', (code) => reject(new Error(`chain proxy on :${o.port} exited (${code}) before it listened`)));
    });
    return new ChainProxyProcess(child, o.port);
  }

  /** Switches the proxy's mode; answers what it has done so far. */
  set(mode: ProxyMode): Promise<ProxyCounts> {
    return this.ask({ type: 'set', mode });
  }

  counts(): Promise<ProxyCounts> {
    return this.ask({ type: 'counts' });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }

  /** One question at a time: answers come back in order. */
  private ask(message: ToProxy): Promise<ProxyCounts> {
    const next = this.queue.then(
      () =>
        new Promise<ProxyCounts>((resolve, reject) => {
          this.child.once('message', (m: FromProxy) => (m.type === 'done' ? resolve(m.counts) : reject(new Error(JSON.stringify(m)))));
          this.child.send(message);
        }),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** The child's side: a proxy from the command line, its mode set by the parent; it ends with the parent. */
async function serveForParent(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      target: { type: 'string' },
      'slow-ms': { type: 'string' },
      'jitter-ms': { type: 'string' },
      'garbage-share': { type: 'string' },
    },
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const proxy = new ChainProxy({
    port: Number(values.port),
    target: String(values.target),
    slowMs: num(values['slow-ms']),
    jitterMs: num(values['jitter-ms']),
    garbageShare: num(values['garbage-share']),
  });
  const send = (m: FromProxy) => process.send?.(m);
  try {
    await proxy.start();
  } catch (error) {
    send({ type: 'error', message: (error as Error).message });
    process.exit(1);
  }
  process.on('message', (m: ToProxy) => {
    const done = () => send({ type: 'done', counts: proxy.counts });
    if (m.type === 'set') proxy.set(m.mode).then(done, (error: Error) => send({ type: 'error', message: error.message }));
    else done();
  });
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => void proxy.stop().then(() => process.exit(0)));
  send({ type: 'ready' });
}

if (require.main === module) void serveForParent();
