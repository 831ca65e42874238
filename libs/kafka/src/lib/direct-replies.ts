import fastify, { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import type { ReplyEnvelope } from './reply-envelope';

/**
 * Direct replies (README: "Kafka transport"). A request goes to its service through Kafka: durable, in
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

/** Caller side: the internal listener that hands each reply to the request waiting for it. */
export class DirectReplyListener {
  private server?: FastifyInstance;

  constructor(private readonly deliver: (correlationId: string, envelope: ReplyEnvelope) => void) {}

  /**
   * Listens on `host:port` (port 0: any free port) and returns the URL to name in requests, with
   * `advertisedHost` (the name services reach this instance by) and the port actually bound.
   * `POST <path><correlation id>` with the envelope as JSON: 204 taken, 400 unreadable, 404 anything else.
   */
  async listen(host: string, port: number, advertisedHost: string): Promise<string> {
    // Services keep their connections open between replies (undici's keep-alive is shorter than this).
    const server = fastify({ bodyLimit: MAX_REPLY_BYTES, keepAliveTimeout: 65_000 });
    server.post<{ Params: { correlationId: string } }>(
      `${DIRECT_REPLY_PATH}:correlationId`,
      // The bare path matches with an empty id: not a reply, refused before its body is read.
      { onRequest: async (request, reply) => (request.params.correlationId ? undefined : reply.code(404).send()) },
      async (request, reply) => {
        const envelope = request.body as ReplyEnvelope | null;
        if (typeof envelope !== 'object' || envelope === null) return reply.code(400).send();
        this.deliver(request.params.correlationId, envelope);
        return reply.code(204).send();
      },
    );
    this.server = server;
    await server.listen({ host, port });
    const bound = (server.server.address() as AddressInfo).port;
    const name = advertisedHost.includes(':') ? `[${advertisedHost}]` : advertisedHost;
    return `http://${name}:${bound}${DIRECT_REPLY_PATH}`;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}

/** Service side: sends a reply to the caller's listener. Rejects when it was not taken (the caller falls back to Kafka). */
export class DirectReplySender {
  private readonly pools = new Map<string, { pool: Pool; path: string }>();

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
    if (url.protocol !== 'http:' || url.pathname !== DIRECT_REPLY_PATH || url.search || url.username) throw new Error(`not a reply URL: ${replyUrl}`);
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
