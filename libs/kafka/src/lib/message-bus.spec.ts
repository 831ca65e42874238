import { DirectQueryTopic, isDirectQueryTopic, Topics } from '@partner/contracts';
import { RequestContext, RequestContexts } from '@partner/runtime';
import { testPartnerId } from '@partner/testing';
import { DirectQueries, MessageBus, RequestReplyChannel, ServiceUnavailableError } from './message-bus';
import { ReplyEnvelope } from './reply-envelope';

/** A channel whose wire answers each request with `answer` (or never): no broker needed for the mapping. */
function channelAnswering(answer: ((correlationId: string) => ReplyEnvelope | undefined) | Error, timeoutMs = 1000) {
  const channel: RequestReplyChannel = new RequestReplyChannel(async (_topic, _key, _value, correlationId) => {
    if (answer instanceof Error) throw answer;
    const envelope = answer(correlationId);
    if (envelope) setImmediate(() => channel.deliver(correlationId, envelope));
  }, timeoutMs);
  return channel;
}

/** The reason of the ServiceUnavailableError a request failed with (anything else shows as itself). */
const reasonOf = (request: Promise<unknown>): Promise<string> =>
  request.then(
    () => 'answered',
    (error: unknown) => (error instanceof ServiceUnavailableError ? error.reason : String(error)),
  );

describe('RequestReplyChannel (MessageBus.request)', () => {
  it('returns the reply of the remote handler, matched by correlation id', async () => {
    const reply = { ok: true, data: { service: 'withdrawals', database: true } };
    const channel = channelAnswering(() => ({ response: reply }));
    await expect(channel.request('withdrawals.query.ping.v1', {})).resolves.toEqual(reply);
    expect(channel.pending).toBe(0);
  });

  it('routes concurrent replies to their own requests, whatever order they come back in', async () => {
    const sent: Array<[string, string]> = [];
    const channel = new RequestReplyChannel(async (_t, _k, value, correlationId) => void sent.push([correlationId, value]), 1000);
    const first = channel.request('t', { n: 1 });
    const second = channel.request('t', { n: 2 });
    for (const [correlationId, value] of [...sent].reverse()) channel.deliver(correlationId, { response: JSON.parse(value) });
    await expect(Promise.all([first, second])).resolves.toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("hands the request's context to the wire (MessageBus puts it in the message headers)", async () => {
    const contexts: unknown[] = [];
    const channel = new RequestReplyChannel(async (_t, _k, _v, correlationId, _deadline, context) => {
      contexts.push(context);
      setImmediate(() => channel.deliver(correlationId, { response: {} }));
    }, 1000);
    await channel.request('t', {}, 'key', { requestId: 'abc-123', partnerId: 'p-1' });
    await channel.request('t', {});
    expect(contexts).toEqual([{ requestId: 'abc-123', partnerId: 'p-1' }, undefined]);
  });

  it('a remote handler that failed (its database went away) is service unavailable, not a 500, and says it failed', async () => {
    const channel = channelAnswering(() => ({ err: 'Internal server error' }));
    expect(await reasonOf(channel.request('t', {}))).toBe('failed');
  });

  it('a transport error and a timeout are service unavailable too, each with its reason, and nothing stays pending', async () => {
    expect(await reasonOf(channelAnswering(new Error('broker down')).request('t', {}))).toBe('unreachable');
    const silent = channelAnswering(() => undefined, 20);
    expect(await reasonOf(silent.request('t', {}))).toBe('timed_out');
    expect(silent.pending).toBe(0);
  });

  it('stamps each request with the instant its caller stops waiting (the deadline a service drops it after)', async () => {
    const deadlines: number[] = [];
    const channel = new RequestReplyChannel(async (_t, _k, _v, correlationId, deadline) => {
      deadlines.push(Number(deadline));
      setImmediate(() => channel.deliver(correlationId, { response: {} }));
    }, 5_000);
    const before = Date.now();
    await channel.request('t', {});
    expect(deadlines[0]).toBeGreaterThanOrEqual(before + 5_000);
    expect(deadlines[0]).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it('ignores a late reply for a request that already timed out, and fails what waits at shutdown', async () => {
    const sent: string[] = [];
    const channel = new RequestReplyChannel(async (_t, _k, _v, correlationId) => void sent.push(correlationId), 10);
    await expect(channel.request('t', {})).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(() => channel.deliver(sent[0], { response: 'too late' })).not.toThrow();
    const waiting = channel.request('t', {});
    channel.abortAll();
    await expect(waiting).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('MessageBus with direct queries (the port internal-http implements)', () => {
  /** Answers every events listing it is given, and records what it was sent with. */
  class FakeDirectQueries implements DirectQueries {
    sent: Array<{ topic: string; context?: RequestContext }> = [];
    closed = false;
    serves(topic: string): topic is DirectQueryTopic {
      return isDirectQueryTopic(topic) && topic === Topics.EventsList;
    }
    async request(topic: DirectQueryTopic, _payload: unknown, context?: RequestContext): Promise<unknown> {
      this.sent.push({ topic, context });
      return { ok: true, data: { events: [], next_cursor: null } };
    }
    async close(): Promise<void> {
      this.closed = true;
    }
  }

  // Never connected: a request the port does not serve would need the reply topic this bus never opened.
  const busWith = (direct: DirectQueries) =>
    new MessageBus({
      connection: { brokers: ['127.0.0.1:1'], clientId: 'bus-spec' },
      requests: { timeoutMs: 1_000, directQueries: direct },
      idempotentProducer: false,
    });

  it("sends what the port serves there, in the caller's request context, and checks the reply as over Kafka", async () => {
    const direct = new FakeDirectQueries();
    const bus = busWith(direct);
    const partner = testPartnerId();
    const context = { requestId: 'req-1', partnerId: partner };
    await expect(RequestContexts.run(context, () => bus.request(Topics.EventsList, { partner_id: partner }))).resolves.toEqual({
      ok: true,
      data: { events: [], next_cursor: null },
    });
    expect(direct.sent).toEqual([{ topic: Topics.EventsList, context }]);

    const other = bus.request(Topics.InflowsList, { partner_id: partner });
    await expect(other).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(direct.sent).toHaveLength(1);

    await bus.onApplicationShutdown();
    expect(direct.closed).toBe(true);
  });
});
