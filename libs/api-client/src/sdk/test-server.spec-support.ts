import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test server received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

/** How the server answers a request: a status, a JSON body and headers; `destroy` cuts the connection; `delayMs` answers late. */
export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  destroy?: boolean;
  delayMs?: number;
}

/**
 * A real HTTP server on a free local port (no fetch mock: the SDK's own fetch talks to it). It answers
 * each request with the next scripted answer (the last one again once they run out) and records it.
 */
export class TestServer {
  readonly received: Received[] = [];
  private answers: Array<Answer | ((request: Received) => Answer)> = [];
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The answers to the next requests, in order. */
  script(...answers: Array<Answer | ((request: Received) => Answer)>): void {
    this.answers = answers;
    this.received.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const received: Received = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
      at: Date.now(),
    };
    this.received.push(received);
    const next = this.answers.length > 1 ? this.answers.shift() : this.answers[0];
    const answer = typeof next === 'function' ? next(received) : (next ?? {});
    if (answer.destroy) return void req.socket.destroy();
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'x-request-id': 'req-from-server', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }
}
