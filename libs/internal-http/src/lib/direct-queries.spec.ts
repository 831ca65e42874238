import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import fastify, { FastifyInstance } from 'fastify';
import { AckEventsCommand, ListEventsQuery, ListEventsResult, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest, KafkaServer, ServiceUnavailableError } from '@partner/kafka';
import { CONTEXT_HTTP_HEADERS, RequestContext, RequestContexts } from '@partner/runtime';
import { DIRECT_QUERY_PATH, DirectQueryClient, serveDirectQueries } from './direct-queries';
import { INTERNAL_SIGNATURE_HEADERS, signInternalRequest } from './internal-trust';

// A real HTTP server and client on loopback; the KafkaServer is never started (no broker needed): the
// route runs the handlers registered on it, as bootstrapService wires it in every service.

class FeedHandlers {
  failing = false;
  seen: ListEventsQuery[] = [];
  contexts: Array<RequestContext | undefined> = [];

  @HandleRequest(Topics.EventsList)
  async list(query: ListEventsQuery): Promise<RequestReply<typeof Topics.EventsList>> {
    if (this.failing) throw new Error('database went away');
    this.seen.push(query);
    this.contexts.push(RequestContexts.current());
    const result: ListEventsResult = { events: [], next_cursor: 'Mg' };
    return { ok: true, data: result };
  }

  @HandleRequest(Topics.EventsAck)
  async ack(_command: AckEventsCommand): Promise<RequestReply<typeof Topics.EventsAck>> {
    throw new Error('a command must never run from the direct route');
  }
}

async function service(handlers: FeedHandlers, port = 0, secret = ''): Promise<{ http: FastifyInstance; url: string }> {
  const server = new KafkaServer({
    connection: { brokers: ['127.0.0.1:1'], clientId: 'direct-spec' },
    groupId: 'direct-spec',
    maxInFlight: 4,
  });
  server.addHandler(Topics.EventsList, handlers.list.bind(handlers) as never, false);
  server.addHandler(Topics.EventsAck, handlers.ack.bind(handlers) as never, false);
  const http = fastify();
  serveDirectQueries(http, server, secret);
  await http.listen({ port, host: '127.0.0.1' });
  return { http, url: `http://127.0.0.1:${(http.server.address() as AddressInfo).port}` };
}

const partner = randomUUID();
const opened: Array<FastifyInstance | DirectQueryClient> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

describe('direct queries', () => {
  it('answers a read-only query with the handler, its payload validated as over Kafka', async () => {
    const handlers = new FeedHandlers();
    const { http, url } = await service(handlers);
    const client = new DirectQueryClient({ events: url }, 2_000);
    opened.push(http, client);

    await expect(client.request(Topics.EventsList, { partner_id: partner, delivered: false, limit: 10 })).resolves.toEqual({
      ok: true,
      data: { events: [], next_cursor: 'Mg' },
    });
    expect(handlers.seen).toEqual([expect.objectContaining({ partner_id: partner, delivered: false, limit: 10 })]);

    // The handler's own contract validation runs: an invalid payload is an invalid_request reply, not a call.
    await expect(client.request(Topics.EventsList, { partner_id: 'not-a-uuid' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(handlers.seen).toHaveLength(1);
  });

  it("runs the handler in the caller's request context, carried in headers as over Kafka", async () => {
    const handlers = new FeedHandlers();
    const { http, url } = await service(handlers);
    const client = new DirectQueryClient({ events: url }, 2_000);
    opened.push(http, client);

    await client.request(Topics.EventsList, { partner_id: partner }, { requestId: 'abc-123', partnerId: partner });
    await client.request(Topics.EventsList, { partner_id: partner });

    expect(handlers.contexts).toEqual([{ requestId: 'abc-123', partnerId: partner }, undefined]);
  });

  it('refuses commands and unknown topics (404): only direct query topics are reachable over HTTP', async () => {
    const { http, url } = await service(new FeedHandlers());
    opened.push(http);
    for (const topic of [Topics.EventsAck, Topics.WithdrawalsCreate, Topics.InflowsList, 'nope']) {
      const response = await fetch(`${url}${DIRECT_QUERY_PATH}${topic}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ partner_id: partner, ids: [] }),
      });
      expect(response.status).toBe(404);
    }
  });

  it('turns a failing handler into ServiceUnavailableError (the gateway answers 503)', async () => {
    const handlers = new FeedHandlers();
    handlers.failing = true;
    const { http, url } = await service(handlers);
    const client = new DirectQueryClient({ events: url }, 2_000);
    opened.push(http, client);
    await expect(client.request(Topics.EventsList, { partner_id: partner })).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('waits for a service that is restarting, and gives up at the deadline when it never comes', async () => {
    // A free port: open a server to learn one, close it, then start the service there a moment later.
    const probe = fastify();
    await probe.listen({ port: 0, host: '127.0.0.1' });
    const port = (probe.server.address() as AddressInfo).port;
    await probe.close();

    const client = new DirectQueryClient({ events: `http://127.0.0.1:${port}` }, 5_000);
    opened.push(client);
    const answer = client.request(Topics.EventsList, { partner_id: partner });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { http } = await service(new FeedHandlers(), port);
    opened.push(http);
    await expect(answer).resolves.toMatchObject({ ok: true });

    const nobody = new DirectQueryClient({ events: `http://127.0.0.1:${port + 1 === 65536 ? port - 1 : port + 1}` }, 400);
    opened.push(nobody);
    const started = Date.now();
    await expect(nobody.request(Topics.EventsList, { partner_id: partner })).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  describe('with INTERNAL_SECRET', () => {
    const SECRET = 'a'.repeat(64);
    const other = randomUUID();
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${DIRECT_QUERY_PATH}${Topics.EventsList}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

    it("answers the gateway's signed queries, context included", async () => {
      const handlers = new FeedHandlers();
      const { http, url } = await service(handlers, 0, SECRET);
      const client = new DirectQueryClient({ events: url }, 2_000, SECRET);
      opened.push(http, client);
      await expect(
        client.request(Topics.EventsList, { partner_id: partner }, { requestId: 'r-1', partnerId: partner }),
      ).resolves.toMatchObject({ ok: true });
      expect(handlers.contexts).toEqual([{ requestId: 'r-1', partnerId: partner }]);
    });

    it('refuses (401, nothing said) a forged partner_id: unsigned, signed with another secret, another body under a real signature, a stale signature', async () => {
      const handlers = new FeedHandlers();
      const { http, url } = await service(handlers, 0, SECRET);
      opened.push(http);
      const forged = { partner_id: other, delivered: false, limit: 10 };
      const body = JSON.stringify(forged);
      const signedForPartner = signInternalRequest(SECRET, { topic: Topics.EventsList, body: JSON.stringify({ partner_id: partner }) });
      const attempts: Array<[string, Record<string, string>]> = [
        ['unsigned', {}],
        ['unsigned, with a partner header', { [CONTEXT_HTTP_HEADERS.partnerId]: other }],
        ['another secret', signInternalRequest('b'.repeat(64), { topic: Topics.EventsList, body })],
        ["another body's signature", signedForPartner],
        ['signed for another partner header', signInternalRequest(SECRET, { topic: Topics.EventsList, partnerId: partner, body })],
        ['stale', signInternalRequest(SECRET, { topic: Topics.EventsList, body }, Date.now() - 10 * 60_000)],
        ['garbage', { [INTERNAL_SIGNATURE_HEADERS.signature]: 'v1=zz', [INTERNAL_SIGNATURE_HEADERS.timestamp]: 'now' }],
      ];
      for (const [label, headers] of attempts) {
        const extra = label === 'signed for another partner header' ? { ...headers, [CONTEXT_HTTP_HEADERS.partnerId]: other } : headers;
        const response = await post(url, forged, extra);
        expect([label, response.status, await response.json()]).toEqual([label, 401, { err: 'unauthorized' }]);
      }
      // Not even a command topic's existence is revealed to an unsigned caller.
      const command = await fetch(`${url}${DIRECT_QUERY_PATH}${Topics.EventsAck}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(command.status).toBe(401);
      expect(handlers.seen).toEqual([]);
    });

    it('a gateway without the secret is refused too (ServiceUnavailableError, never the data)', async () => {
      const { http, url } = await service(new FeedHandlers(), 0, SECRET);
      const unsigned = new DirectQueryClient({ events: url }, 1_000);
      opened.push(http, unsigned);
      await expect(unsigned.request(Topics.EventsList, { partner_id: partner })).rejects.toThrow('HTTP 401');
    });
  });

  it('serves only direct query topics whose service has an address', () => {
    const client = new DirectQueryClient({ events: 'http://127.0.0.1:1' }, 1_000);
    opened.push(client);
    expect(client.serves(Topics.EventsList)).toBe(true);
    expect(client.serves(Topics.InflowsList)).toBe(false);
    expect(client.serves(Topics.EventsAck)).toBe(false);
    expect(client.serves(Topics.WithdrawalsCreate)).toBe(false);
  });
});
