import { kafkaConnectionFromEnv } from './kafka-client';
import { Controller, INestMicroservice, Logger } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { loadConfig, CommonConfig } from '@partner/config';
import { ok, PingQuery, RequestReply, Topics, WithdrawalStateChangedEvent } from '@partner/contracts';
import { newCpf, newUuid, pollUntil, VALID_ADDRESS, testPartnerId } from '@partner/testing';
import { randomBytes } from 'node:crypto';
import { UnprocessableEventError } from './dead-letters';
import { HandleEvent, HandleRequest } from './handler.decorators';
import { commandIdOf, KafkaMessageContext } from './kafka-server';
import { kafkaClientFromEnv } from './kafka-client.factory';
import { KafkaConnection, kafkaServerOptions } from './kafka.options';
import { MessageBus, ServiceUnavailableError } from './message-bus';
import { ensureTopics, topicLayout } from './topic-admin';

// Integration through the real broker. The responder answers the inflows ping topic, whose real
// service is not running while this suite runs (npm test starts the stack only for e2e); the customers
// ping topic is left without any responder.

const RESPONDED = Topics.InflowsPing;
const UNANSWERED = Topics.CustomersPing;
const TIMEOUT_MS = 1500;
const run = randomBytes(4).toString('hex');
const connection: KafkaConnection = {
  ...kafkaConnectionFromEnv('spec'),
  clientId: `decorators-spec-${process.pid}`,
  client: kafkaClientFromEnv(),
};

/** Every payload the responder's method body ran with: the decorator must keep invalid ones out. */
const handled: unknown[] = [];
/** The command id each ping's handler was given, by its sent_at. */
const commandIds = new Map<string, string | undefined>();

/** A ping sent at this instant holds the responder's only handler slot until `releaseStall` is called. */
const STALL_SENT_AT = '2000-01-01T00:00:00.000Z';
let releaseStall: () => void = () => undefined;
const stall = new Promise<void>((resolve) => (releaseStall = resolve));
const sentAtOf = (query: unknown) => (query as { sent_at?: unknown }).sent_at;

@Controller()
class PingResponder {
  @HandleRequest(RESPONDED)
  async ping(@Payload() query: PingQuery, @Ctx() context: KafkaMessageContext): Promise<RequestReply<typeof RESPONDED>> {
    handled.push(query);
    commandIds.set(query.sent_at, commandIdOf(context));
    if (query.sent_at === STALL_SENT_AT) await stall;
    // Echoes the request, so a reply can only have come from this method and for this request.
    return ok({ service: `echo:${query.sent_at}`, database: false });
  }
}

let responder: INestMicroservice;
let bus: MessageBus;

beforeAll(async () => {
  await ensureTopics(connection, topicLayout(loadConfig(CommonConfig)));

  const moduleRef = await Test.createTestingModule({ controllers: [PingResponder] }).compile();
  // compile() installs Nest's testing logger, which prints errors; keep jest.setup.js's silence.
  if (!process.env.TEST_LOGS) Logger.overrideLogger(false);
  responder = moduleRef.createNestMicroservice(kafkaServerOptions({ connection, groupId: `decorators-spec-${run}`, maxInFlight: 1 }));

  // The gateway's set-up (KafkaModule), with a reply consumer group of this run's own.
  bus = new MessageBus({ connection, requests: { timeoutMs: TIMEOUT_MS }, idempotentProducer: false });
  // Both join a consumer group first; they do it at the same time to keep the suite short.
  await Promise.all([responder.listen(), bus.onModuleInit()]);
}, 90_000);

// Each consumer waits for its in-flight fetch when leaving its group: close them side by side.
afterAll(() => Promise.all([bus?.onApplicationShutdown(), responder?.close()]), 30_000);

describe('HandleRequest over Kafka', () => {
  it('runs the handler with the validated payload and sends its reply back', async () => {
    // Retried until the first answer, in case the fresh consumer groups are still settling on a slow machine.
    const { sentAt, reply } = await pollUntil(
      'a reply from the responder',
      async () => {
        const sentAt = new Date().toISOString();
        return { sentAt, reply: await bus.request(RESPONDED, { sent_at: sentAt }) };
      },
      ({ reply }) => reply.ok,
      { timeoutMs: 30_000, intervalMs: 0 },
    );

    expect(reply).toEqual({ ok: true, data: { service: `echo:${sentAt}`, database: false } });
    const seen = handled.find((q) => q instanceof PingQuery && q.sent_at === sentAt);
    expect(seen).toBeInstanceOf(PingQuery);
  }, 40_000);

  it("hands a handler that asks for its context (@Ctx) the command's id: one per request, the same for every copy", async () => {
    const [a, b] = [new Date(Date.now() - 2).toISOString(), new Date(Date.now() - 1).toISOString()];
    expect((await bus.request(RESPONDED, { sent_at: a })).ok).toBe(true);
    expect((await bus.request(RESPONDED, { sent_at: b })).ok).toBe(true);
    expect(commandIds.get(a)).toEqual(expect.stringMatching(/^[0-9a-f]{12}-[0-9a-z]+$/));
    expect(commandIds.get(b)).toEqual(expect.stringMatching(/^[0-9a-f]{12}-[0-9a-z]+$/));
    expect(commandIds.get(a)).not.toBe(commandIds.get(b));
  }, 20_000);

  it('answers an invalid payload with invalid_request naming the field, without running the handler', async () => {
    const reply = await bus.request(RESPONDED, { sent_at: 'nope' });

    expect(reply).toEqual({ ok: false, error: { code: 'invalid_request', field: 'sent_at', message: expect.any(String) } });
    expect(handled.filter((q) => (q as { sent_at?: unknown }).sent_at === 'nope')).toEqual([]);
  }, 20_000);

  it('rejects with ServiceUnavailableError about when the timeout passes if nobody answers', async () => {
    const started = Date.now();

    const outcome = await bus.request(UNANSWERED, { sent_at: new Date().toISOString() }).then(
      (reply) => ({ reply }),
      (error: unknown) => ({ error }),
    );

    const elapsed = Date.now() - started;
    expect('error' in outcome && outcome.error).toBeInstanceOf(ServiceUnavailableError);
    expect('error' in outcome && (outcome.error as ServiceUnavailableError).topic).toBe(UNANSWERED);
    // Not an immediate transport failure, and not a hang: the configured timeout decides.
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 2500);
  }, 20_000);

  it('drops a request that reaches its handler after its deadline (the caller got 503 and stopped waiting), and answers the next', async () => {
    // The stalled ping holds the responder's only slot (maxInFlight 1), so the next one waits behind it
    // past the bus's timeout: a service stalled while a command sits in its queue.
    const stalled = bus.request(RESPONDED, { sent_at: STALL_SENT_AT }).catch((error: unknown) => error);
    await pollUntil('the stalling ping started', async () => handled.some((q) => sentAtOf(q) === STALL_SENT_AT), Boolean, {
      timeoutMs: 15_000,
    });
    const late = new Date(Date.now() - 60_000).toISOString();
    const outcome = await bus.request(RESPONDED, { sent_at: late }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(ServiceUnavailableError);
    expect((outcome as ServiceUnavailableError).reason).toBe('timed_out');

    releaseStall();
    expect(await stalled).toBeInstanceOf(ServiceUnavailableError); // answered late: its caller had gone
    // The late ping had the slot before this one (the slot is handed over in order), so once this one is
    // answered the late one has had its turn: dropped, its handler never ran.
    const fresh = new Date().toISOString();
    expect(await bus.request(RESPONDED, { sent_at: fresh })).toEqual({ ok: true, data: { service: `echo:${fresh}`, database: false } });
    expect(handled.filter((q) => sentAtOf(q) === late)).toEqual([]);
  }, 40_000);
});

describe('HandleEvent', () => {
  class Projector {
    readonly seen: WithdrawalStateChangedEvent[] = [];
    failWith?: Error;

    @HandleEvent(Topics.WithdrawalStateChanged)
    async handle(event: WithdrawalStateChangedEvent): Promise<void> {
      if (this.failWith) throw this.failWith;
      this.seen.push(event);
    }
  }

  const event = (): WithdrawalStateChangedEvent => ({
    event_id: newUuid(),
    partner_id: testPartnerId(),
    type: 'usdt_withdrawal',
    state: 'created',
    resource_id: '7',
    occurred_at: new Date().toISOString(),
    resource: {
      id: 7,
      document: newCpf(),
      idempotency_key: newUuid(),
      address: VALID_ADDRESS,
      network: 'ETH',
      fee_choice: 'HIGH',
      usdtmicros: 5_000_000,
      fee_micros: 1_000_000,
      state: 'created',
      tx_hash: null,
      block_number: null,
      failure_reason: null,
      created_at: 1_700_000_000,
      last_updated_at: 1_700_000_000,
    },
  });

  it('refuses an invalid event as unprocessable, for the transport to park, without calling the method (retrying could never make it valid)', async () => {
    const projector = new Projector();

    await expect(projector.handle({ ...event(), state: 'teleported' as 'created' })).rejects.toBeInstanceOf(UnprocessableEventError);
    await expect(projector.handle({ ...event(), event_id: 'not-a-uuid' })).rejects.toThrow(/invalid event: event_id/);

    expect(projector.seen).toEqual([]);
  });

  it('calls the method with an event that carries fields the contract does not know, without them (a producer may add a field first)', async () => {
    const projector = new Projector();
    const valid = event();

    await projector.handle({ ...valid, added_later: 1, resource: { ...valid.resource, also_added: 'x' } } as WithdrawalStateChangedEvent);

    expect(projector.seen).toHaveLength(1);
    expect(projector.seen[0]).not.toHaveProperty('added_later');
    expect(projector.seen[0].resource).not.toHaveProperty('also_added');
    expect(projector.seen[0]).toMatchObject({ event_id: valid.event_id, state: 'created' });
  });

  it('calls the method with a valid event, as an instance of the contract class', async () => {
    const projector = new Projector();
    const valid = event();

    await projector.handle(valid);

    expect(projector.seen).toHaveLength(1);
    expect(projector.seen[0]).toBeInstanceOf(WithdrawalStateChangedEvent);
    expect(projector.seen[0]).toMatchObject({ event_id: valid.event_id, partner_id: valid.partner_id, state: 'created' });
  });

  it("lets the method's own error propagate, so the offset is not committed and Kafka redelivers", async () => {
    const projector = new Projector();
    projector.failWith = new Error('database away');

    await expect(projector.handle(event())).rejects.toThrow('database away');
  });
});
