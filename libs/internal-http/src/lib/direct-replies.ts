import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DirectReplies, ReplyEnvelope, ReplyListener } from '@partner/kafka';
import { Pool } from './undici-pool';
import { ReplyTargets } from './internal-trust';

/**
 * Direct replies (docs/architecture.md: "Direct replies"). A request goes to its service through Kafka: durable, in
 * order per key, waiting in the topic while the service restarts. Its reply needs none of that: it is
 * useful only to the one gateway instance waiting for it, and a lost reply only makes that instance time
 * out (503) and the partner retry with the same idempotency key. So a caller that listens on an internal
 * HTTP port names it in the request's `reply_url` header and the service answers there, one loopback or
 * LAN HTTP call instead of a produce, a broker append and a consumer fetch. If the call fails (the
 * instance is gone, the address is unreachable) the service falls back to the request's reply topic.
 */
export const DIRECT_REPLY_PATH = '/internal/v1/replies/';

/** Replies on Kafka are bounded by the broker's message size (1 MB); the same bound here, with room. */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** A reply the caller does not take within this is treated as lost: the Kafka reply is sent instead. */
const SEND_TIMEOUT_MS = 2_000;
/** Connections kept to each caller; replies of one caller are sent concurrently on them. */
const CONNECTIONS_PER_CALLER = 16;
/** Callers (gateway instances) remembered; an instance that went away leaves its pool here until evicted. */
const MAX_CALLERS = 64;

/**
 * Caller side: the internal listener that hands each reply to the request waiting for it (the gateway
 * gives it to its MessageBus). Plain node:http, not Fastify: one reply per request passes here, and a
 * Fastify route costs the gateway measurably more CPU per request for a route that needs none of its features.
 */
export class DirectReplyListener implements ReplyListener {
  private server?: Server;
  private deliver: (correlationId: string, envelope: ReplyEnvelope) => void = () => undefined;

  /** On `host:port` (port 0: any free port), reached by services as `advertisedHost`. */
  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly advertisedHost: string,
  ) {}

  /** Listens, handing each reply to `deliver`, and returns the URL to name in requests (with the port actually bound). */
  async listen(deliver: (correlationId: string, envelope: ReplyEnvelope) => void): Promise<string> {
    this.deliver = deliver;
    const { host, port, advertisedHost } = this;
    const server = createServer((req, res) => this.onRequest(req, res));
    // Services keep their connections open between replies (undici's keep-alive is shorter than this).
    server.keepAliveTimeout = 65_000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = (server.address() as AddressInfo).port;
    const name = advertisedHost.includes(':') ? `[${advertisedHost}]` : advertisedHost;
    return `http://${name}:${bound}${DIRECT_REPLY_PATH}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** `POST <path><correlation id>` with the envelope as JSON: 204 taken, 400 unreadable, 404 anything else. */
  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '';
    if (req.method !== 'POST' || !url.startsWith(DIRECT_REPLY_PATH) || url.length === DIRECT_REPLY_PATH.length) {
      res.writeHead(404).end();
      req.resume();
      return;
    }
    const correlationId = decodeURIComponent(url.slice(DIRECT_REPLY_PATH.length));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      let envelope: ReplyEnvelope;
      try {
        if (size > MAX_REPLY_BYTES) throw new Error('too large');
        envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReplyEnvelope;
        if (typeof envelope !== 'object' || envelope === null) throw new Error('not an envelope');
      } catch {
        res.writeHead(400).end();
        return;
      }
      this.deliver(correlationId, envelope);
      res.writeHead(204).end();
    });
  }
}

/**
 * Service side: sends a reply to the caller's listener (bootstrapService gives it to the service's
 * KafkaServer). Rejects when it was not taken (the caller falls back to Kafka).
 */
export class DirectReplySender implements DirectReplies {
  private readonly pools = new Map<string, { pool: Pool; path: string }>();

  /** `targets`: the hosts replies may go to (REPLY_TARGETS; loopback only by default). */
  constructor(private readonly targets = new ReplyTargets()) {}

  async send(replyUrl: string, correlationId: string, envelopeJson: string): Promise<void> {
    const { pool, path } = this.poolOf(replyUrl);
    const response = await pool.request({
      method: 'POST',
      path: path + encodeURIComponent(correlationId),
      headers: { 'content-type': 'application/json' },
      body: envelopeJson,
      headersTimeout: SEND_TIMEOUT_MS,
      bodyTimeout: SEND_TIMEOUT_MS,
    });
    await response.body.dump();
    if (response.statusCode !== 204) throw new Error(`reply not taken: HTTP ${response.statusCode}`);
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.close().catch(() => undefined)));
  }

  private poolOf(replyUrl: string): { pool: Pool; path: string } {
    let entry = this.pools.get(replyUrl);
    if (entry) return entry;
    const url = new URL(replyUrl);
    // Only plain internal HTTP, and only the reply path: the header cannot turn a service into a proxy.
    if (url.protocol !== 'http:' || url.pathname !== DIRECT_REPLY_PATH || url.search || url.username)
      throw new Error(`not a reply URL: ${replyUrl}`);
    // And only to a host the operator allowed: the header comes with a message anyone who may produce to the topic wrote.
    if (!this.targets.allows(url)) throw new Error(`reply URL outside REPLY_TARGETS: ${replyUrl}`);
    if (this.pools.size >= MAX_CALLERS) {
      const [oldest, { pool }] = this.pools.entries().next().value as [string, { pool: Pool; path: string }];
      this.pools.delete(oldest);
      void pool.close().catch(() => undefined);
    }
    entry = { pool: new Pool(url.origin, { connections: CONNECTIONS_PER_CALLER, pipelining: 1 }), path: url.pathname };
    this.pools.set(replyUrl, entry);
    return entry;
  }
}
