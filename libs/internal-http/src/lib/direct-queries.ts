import { Logger } from '@nestjs/common';
import { DirectQueryTopic, isDirectQueryTopic, ownerOfQuery, ServiceName } from '@partner/contracts';
import { DirectQueries, type KafkaServer, ReplyEnvelope, ServiceUnavailableError } from '@partner/kafka';
import { CONTEXT_HTTP_HEADERS, contextFromHeaders, contextHeaders, RequestContext, RequestContexts } from '@partner/runtime';
import type { FastifyInstance } from 'fastify';
import { Pool } from './undici-pool';
import { INTERNAL_SIGNATURE_HEADERS, signInternalRequest, verifyInternalRequest } from './internal-trust';

/**
 * Direct queries (docs/architecture.md: "Direct queries"). A read-only query (contracts' directQueryTopics) needs no
 * durable hand-off: nothing is changed, so nothing is lost when it fails, and it is safe to repeat.
 * Through Kafka it still pays two broker round trips and two consumer fetch cycles; the feed poll, the
 * call partners make most, then waits on the broker more than on its database. So the service that owns
 * such a query also answers it on its internal HTTP port, with the same handler (payload validation
 * included) and the same reply envelope as over Kafka; the gateway sends it there when configured.
 */
export const DIRECT_QUERY_PATH = '/internal/v1/queries/';

/** Connections a gateway keeps open to each service (one request in flight on each). */
const CONNECTIONS_PER_SERVICE = 32;
/** Between attempts while the service cannot be reached (it is restarting): as Kafka would hold the request. */
const RETRY_MS = 100;
const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Service side: answers `POST /internal/v1/queries/<topic>` on the service's own HTTP server for every
 * direct query topic it handles. Any other topic is 404: commands cannot be sent this way. With `secret`
 * (INTERNAL_SECRET) only a request the gateway signed with it is answered (internal-trust.ts): anything
 * else is 401 with nothing more said, before the topic is even looked at.
 */
export function serveDirectQueries(http: FastifyInstance, server: KafkaServer, secret = ''): void {
  const logger = new Logger('DirectQueries');
  http.post<{ Params: { topic: string } }>(`${DIRECT_QUERY_PATH}:topic`, async (request, reply) => {
    const { topic } = request.params;
    if (secret) {
      const h = request.headers;
      const parts = {
        topic,
        requestId: header(h[CONTEXT_HTTP_HEADERS.requestId]),
        partnerId: header(h[CONTEXT_HTTP_HEADERS.partnerId]),
        body: JSON.stringify(request.body ?? null),
      };
      if (!verifyInternalRequest(secret, h[INTERNAL_SIGNATURE_HEADERS.signature], h[INTERNAL_SIGNATURE_HEADERS.timestamp], parts))
        return reply.code(401).send({ err: 'unauthorized' });
    }
    if (!isDirectQueryTopic(topic) || !server.answers(topic))
      return reply.code(404).send({ err: `${topic} is not a direct query of this service` });
    // The gateway's request context comes in headers, as it does on Kafka (docs/architecture.md: "Request context").
    const context = contextFromHeaders(request.headers[CONTEXT_HTTP_HEADERS.requestId], request.headers[CONTEXT_HTTP_HEADERS.partnerId]);
    const answer = async () => {
      const envelope = await server.answer(topic, request.body);
      logger.debug(`Handled ${topic} (direct) in ${reply.elapsedTime.toFixed(1)} ms`);
      return envelope;
    };
    return context ? RequestContexts.run(context, answer) : answer();
  });
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Gateway side: sends a direct query to the service that owns it and returns the handler's answer.
 * Errors become ServiceUnavailableError (the gateway's 503), as they do over Kafka. While the service
 * cannot be reached the query is retried until its deadline, so a restarting service costs the caller
 * a wait, not an error, exactly as with a request parked in Kafka. The gateway gives it to its
 * MessageBus, which sends the queries it `serves` here.
 */
export class DirectQueryClient implements DirectQueries {
  private readonly logger = new Logger('DirectQueries');
  private readonly pools = new Map<ServiceName, Pool>();

  /** `secret`: INTERNAL_SECRET, signing every query (services refuse unsigned ones when they have it too). */
  constructor(
    urls: Partial<Record<ServiceName, string>>,
    private readonly timeoutMs: number,
    private readonly secret = '',
  ) {
    for (const [service, url] of Object.entries(urls) as Array<[ServiceName, string | undefined]>) {
      if (url) this.pools.set(service, new Pool(url, { connections: CONNECTIONS_PER_SERVICE, pipelining: 1 }));
    }
  }

  /** Whether `topic` goes the direct way from this process. */
  serves(topic: string): topic is DirectQueryTopic {
    return isDirectQueryTopic(topic) && this.pools.has(ownerOfQuery(topic));
  }

  /** `context`: the request's context (the current one by default), sent in headers (CONTEXT_HTTP_HEADERS). */
  async request(topic: DirectQueryTopic, payload: unknown, context?: RequestContext): Promise<unknown> {
    const pool = this.pools.get(ownerOfQuery(topic));
    if (!pool) throw new ServiceUnavailableError(topic, 'unreachable', 'no address for its service');
    const deadline = Date.now() + this.timeoutMs;
    const body = JSON.stringify(payload);
    const carried = contextHeaders(CONTEXT_HTTP_HEADERS, context);
    const unsigned = carried ? { 'content-type': 'application/json', ...carried } : JSON_HEADERS;
    const signed = {
      topic,
      requestId: carried?.[CONTEXT_HTTP_HEADERS.requestId],
      partnerId: carried?.[CONTEXT_HTTP_HEADERS.partnerId],
      body,
    };
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new ServiceUnavailableError(topic, 'timed_out');
      // Signed at each attempt: a retry after a restart may come later than a signature stays valid.
      const headers = this.secret ? { ...unsigned, ...signInternalRequest(this.secret, signed) } : unsigned;
      let envelope: ReplyEnvelope;
      try {
        const response = await pool.request({
          method: 'POST',
          path: DIRECT_QUERY_PATH + topic,
          headers,
          body,
          headersTimeout: left,
          bodyTimeout: left,
        });
        const text = await response.body.text();
        if (response.statusCode !== 200)
          throw new ServiceUnavailableError(topic, 'unreachable', `HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
        envelope = JSON.parse(text) as ReplyEnvelope;
      } catch (error) {
        if (error instanceof ServiceUnavailableError) throw error;
        // Not reached (refused, reset, timed out): a read is safe to send again until the deadline.
        if (deadline - Date.now() <= RETRY_MS) throw new ServiceUnavailableError(topic, 'unreachable', error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      if (envelope.err !== undefined) {
        this.logger.error(`Remote handler failed on ${topic}: ${envelope.err}`);
        throw new ServiceUnavailableError(topic, 'failed', envelope.err);
      }
      return envelope.response;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close().catch(() => undefined)));
  }
}
