import { kafkaConnectionFromEnv, KafkaConnection } from './kafka-client';
import { Controller, INestMicroservice, Logger } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { pollUntil } from '@partner/testing';
import { Admin, KafkaJSNonRetriableError, Producer } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { kafkaClient, kafkaClientFromEnv } from './kafka-client.factory';
import { KafkaClient } from './kafka-port';
import { createKafka } from './kafkajs-client';
import { ConsumerGroups } from './consumer-groups';
import { KafkaServer } from './kafka-server';
import { RequestContext, RequestContexts } from '@partner/runtime';

// Integration through the real broker, on a scratch topic of this run (one partition, so every message
// below shares it and only the keys tell them apart).

const run = randomBytes(4).toString('hex');
const TOPIC = `kafka-server-spec-${run}`;
const GROUP = `kafka-server-spec-${run}`;
const connection: KafkaConnection = {
  ...kafkaConnectionFromEnv('spec'),
  clientId: `kafka-server-spec-${process.pid}`,
  client: kafkaClientFromEnv(),
};

interface Note {
  key: string;
  n: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the handler saw, and knobs the tests turn: a per-key failure count, a gate a message waits on. */
const state = {
  running: 0,
  maxRunning: 0,
  done: [] as Note[],
  attempts: new Map<string, number>(),
  failFirst: new Map<string, number>(),
  gate: undefined as Promise<void> | undefined,
  /** The request context each message's handler saw, after an await. */
  contexts: new Map<string, RequestContext | undefined>(),
};

@Controller()
class Recorder {
  @EventPattern(TOPIC)
  async handle(note: Note): Promise<void> {
    const id = `${note.key}#${note.n}`;
    const attempt = (state.attempts.get(id) ?? 0) + 1;
    state.attempts.set(id, attempt);
    state.running++;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    try {
      if (note.key === 'gated') await state.gate;
      await sleep(15);
      state.contexts.set(id, RequestContexts.current());
      if (attempt <= (state.failFirst.get(id) ?? 0)) throw new Error(`attempt ${attempt} of ${id} fails`);
      state.done.push(note);
    } finally {
      state.running--;
    }
  }
}

let server: INestMicroservice;
let producer: Producer;
let admin: Admin;

beforeAll(async () => {
  const kafka = createKafka(connection);
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic: TOPIC, numPartitions: 1, replicationFactor: 1 }] });
  producer = kafka.producer();
  await producer.connect();
  const moduleRef = await Test.createTestingModule({ controllers: [Recorder] }).compile();
  if (!process.env.TEST_LOGS) Logger.overrideLogger(false);
  server = moduleRef.createNestMicroservice({
    strategy: new KafkaServer({ connection, groupId: GROUP, maxInFlight: 16, commitIntervalMs: 50 }),
  });
  await server.listen();
}, 90_000);

afterAll(async () => {
  await server?.close();
  await producer?.disconnect();
  await admin?.deleteTopics({ topics: [TOPIC] }).catch(() => undefined);
  await admin?.disconnect();
}, 30_000);

const send = (notes: Note[]) => producer.send({ topic: TOPIC, messages: notes.map((n) => ({ key: n.key, value: JSON.stringify(n) })) });
const doneOf = (key: string) => state.done.filter((d) => d.key === key).map((d) => d.n);

async function committedOffset(): Promise<number> {
  const [topic] = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
  return Number(topic.partitions[0].offset);
}

async function endOffset(): Promise<number> {
  const [partition] = await admin.fetchTopicOffsets(TOPIC);
  return Number(partition.high);
}

describe('KafkaServer', () => {
  it("runs different keys at once, each key's messages one after the other in order", async () => {
    const keys = ['a', 'b', 'c', 'd', 'e'];
    await send(keys.flatMap((key) => Array.from({ length: 8 }, (_, n) => ({ key, n }))));

    await pollUntil(
      'every message handled',
      async () => state.done.length,
      (n) => n >= 40,
      { timeoutMs: 30_000 },
    );

    for (const key of keys) expect({ key, order: doneOf(key) }).toEqual({ key, order: [0, 1, 2, 3, 4, 5, 6, 7] });
    // One partition: with Nest's own transport these 40 would have run strictly one at a time.
    expect(state.maxRunning).toBeGreaterThan(1);
    expect(state.maxRunning).toBeLessThanOrEqual(keys.length);
  }, 40_000);

  it('runs a handler inside the request context its message headers carry, and any other outside one', async () => {
    const message = (n: number, headers?: Record<string, string>) => ({ key: 'ctx', value: JSON.stringify({ key: 'ctx', n }), headers });
    await producer.send({
      topic: TOPIC,
      messages: [
        message(0, { request_id: 'abc-123', partner_id: 'partner-1' }),
        message(1),
        message(2, { request_id: 'not sane' }),
        message(3, { request_id: 'only-id' }),
      ],
    });

    await pollUntil(
      'the ctx messages handled',
      async () => doneOf('ctx'),
      (done) => done.length === 4,
      { timeoutMs: 30_000 },
    );

    expect([0, 1, 2, 3].map((n) => state.contexts.get(`ctx#${n}`))).toEqual([
      { requestId: 'abc-123', partnerId: 'partner-1' },
      undefined, // the next message of the same key does not inherit the previous one's
      undefined, // an id that is not sane is ignored
      { requestId: 'only-id' },
    ]);
  }, 40_000);

  it('retries a failing event handler until it succeeds, and the messages of its key wait for it', async () => {
    state.failFirst.set('flaky#0', 2);
    await send([
      { key: 'flaky', n: 0 },
      { key: 'flaky', n: 1 },
      { key: 'steady', n: 0 },
    ]);

    await pollUntil(
      'the flaky key handled',
      async () => doneOf('flaky'),
      (done) => done.length === 2,
      { timeoutMs: 30_000 },
    );

    expect(state.attempts.get('flaky#0')).toBe(3);
    expect(state.attempts.get('flaky#1')).toBe(1);
    expect(doneOf('flaky')).toEqual([0, 1]);
    expect(doneOf('steady')).toEqual([0]);
  }, 40_000);

  it('commits only up to the oldest message still running, then everything once it finishes', async () => {
    await pollUntil('earlier messages committed', async () => (await committedOffset()) === (await endOffset()), Boolean, {
      timeoutMs: 30_000,
    });
    let open = () => undefined as void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const gatedOffset = await endOffset();
    await send([{ key: 'gated', n: 0 }]);
    await send([
      { key: 'later', n: 0 },
      { key: 'later', n: 1 },
    ]);

    await pollUntil(
      'the later messages handled',
      async () => doneOf('later'),
      (done) => done.length === 2,
      { timeoutMs: 30_000 },
    );
    await sleep(300); // several commit intervals: a wrong commit would have happened by now
    expect(await committedOffset()).toBe(gatedOffset);

    open();
    const end = await endOffset();
    await pollUntil('everything committed', committedOffset, (offset) => offset === end, { timeoutMs: 30_000 });
    expect(doneOf('gated')).toEqual([0]);
  }, 60_000);

  it('stays in its group while every handler slot is taken for longer than the session (it heartbeats while waiting)', async () => {
    const topic = `${TOPIC}-slots`;
    const group = `${GROUP}-slots`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const handled: number[] = [];
    @Controller()
    class Slow {
      @EventPattern(topic)
      async handle(note: Note): Promise<void> {
        if (note.n === 0) await gate;
        handled.push(note.n);
      }
    }
    const moduleRef = await Test.createTestingModule({ controllers: [Slow] }).compile();
    const slow = moduleRef.createNestMicroservice({
      strategy: new KafkaServer({ connection, groupId: group, maxInFlight: 1, commitIntervalMs: 50 }),
    });
    await slow.listen();
    try {
      await producer.send({ topic, messages: [0, 1].map((n) => ({ key: `k${n}`, value: JSON.stringify({ key: `k${n}`, n }) })) });
      await pollUntil(
        'the first message running',
        async () => handled.length === 0 && (await memberIds(group)).length,
        (n) => n === 1,
        { timeoutMs: 20_000 },
      );
      const before = await memberIds(group);
      await sleep(8_000); // longer than the 6 s session: the second message waits for the only slot all along
      expect(await memberIds(group)).toEqual(before);
      open();
      await pollUntil(
        'both messages handled',
        async () => [...handled],
        (h) => h.length === 2,
        { timeoutMs: 20_000 },
      );
      expect(handled).toEqual([0, 1]);
    } finally {
      await slow.close();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    }
  }, 60_000);
});

describe('KafkaServer readiness', () => {
  it("reports its consumers' group membership: joining, a member once assigned, not any more once stopped", async () => {
    const groups = new ConsumerGroups();
    const group = `${GROUP}-membership`;
    const moduleRef = await Test.createTestingModule({ controllers: [Recorder] }).compile();
    const member = moduleRef.createNestMicroservice({ strategy: new KafkaServer({ connection, groupId: group, maxInFlight: 4, groups }) });
    expect(groups.ready()).toBe(false);
    await member.listen();
    await pollUntil(
      'the consumer in its group',
      async () => groups.ready(),
      (ready) => ready,
      { timeoutMs: 30_000 },
    );
    expect(groups.snapshot()[group]).toEqual({ joined: true, detail: `member of ${group}` });
    expect((await memberIds(group)).length).toBe(1);
    await member.close();
    expect(groups.ready()).toBe(false);
    expect(groups.snapshot()[group].joined).toBe(false);
  }, 60_000);
});

async function memberIds(groupId: string): Promise<string[]> {
  const { groups } = await admin.describeGroups([groupId]);
  return groups[0].members.map((m) => m.memberId).sort();
}

/** ConsumerGroups that also keeps every report, so a short-lived state (a crash) can be asserted after the fact. */
class RecordingGroups extends ConsumerGroups {
  readonly history: Array<{ group: string; joined: boolean; detail: string }> = [];
  override report(group: string, joined: boolean, detail: string): void {
    this.history.push({ group, joined, detail });
    super.report(group, joined, detail);
  }
}

/**
 * Fault injection through the client itself: every consumer the project makes for `group` is a real one of
 * the client under test (KAFKA_CLIENT), but the batches it hands over throw when `crashNext` is set, and its
 * `run` fails while `refuseConnect` is set. On kafkajs the error is `KafkaJSNonRetriableError: Failed to find
 * group coordinator` (kafkajs then crashes the consumer for good: CRASH with restart=false, disconnected, as
 * after the broker restart of issue 24); @platformatic/kafka's stream fails with it, which that client never restarts either.
 */
function injectFaults(group: string) {
  const faults = { crashNext: false, refuseConnect: false, consumersMade: 0 };
  const client = kafkaClient(connection);
  const crash = () =>
    client.name === 'kafkajs'
      ? new KafkaJSNonRetriableError('Failed to find group coordinator')
      : new Error('Failed to find group coordinator');
  const prototype = Object.getPrototypeOf(client) as KafkaClient;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
  const original = prototype.consumer;
  const spy = jest.spyOn(prototype, 'consumer').mockImplementation(function (this: KafkaClient, settings) {
    const consumer = original.call(this, settings);
    if (settings.groupId !== group) return consumer;
    faults.consumersMade++;
    const run = consumer.run.bind(consumer);
    consumer.run = (spec) =>
      faults.refuseConnect
        ? Promise.reject(new Error('injected: broker unreachable'))
        : run({
            ...spec,
            eachBatch: async (batch) => {
              if (faults.crashNext) {
                faults.crashNext = false;
                throw crash();
              }
              await spec.eachBatch(batch);
            },
          });
    return consumer;
  });
  return { faults, restore: () => spy.mockRestore() };
}

describe('KafkaServer after a crash its client does not restart (ADR 0015)', () => {
  it('makes a new consumer that re-joins the group; events published after the crash are handled exactly once', async () => {
    const topic = `${TOPIC}-crash`;
    const group = `${GROUP}-crash`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 2, replicationFactor: 1 }] });
    const handled: string[] = [];
    @Controller()
    class Counter {
      @EventPattern(topic)
      async handle(note: { id: string }): Promise<void> {
        handled.push(note.id);
      }
    }
    const { faults, restore } = injectFaults(group);
    const groups = new RecordingGroups();
    const moduleRef = await Test.createTestingModule({ controllers: [Counter] }).compile();
    const member = moduleRef.createNestMicroservice({
      strategy: new KafkaServer({ connection, groupId: group, maxInFlight: 8, commitIntervalMs: 50, groups }),
    });
    // A producer of its own: the shared one keeps asking for the metadata of topics earlier tests deleted.
    const own = createKafka(connection).producer();
    await own.connect();
    const publish = (ids: string[]) => own.send({ topic, messages: ids.map((id) => ({ key: id, value: JSON.stringify({ id }) })) });
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const count = (id: string) => handled.filter((h) => h === id).length;
    try {
      await member.listen();
      await pollUntil('the consumer in its group', async () => groups.ready(), Boolean, { timeoutMs: 30_000 });
      await publish(ids('before', 6));
      await pollUntil(
        'the first events handled',
        async () => handled.length,
        (n) => n >= 6,
        { timeoutMs: 30_000 },
      );

      faults.crashNext = true;
      await publish(['trigger']); // its batch crashes the consumer before any handler sees it
      await pollUntil(
        'the crash reported',
        async () => groups.history.some((h) => /crashed \(Failed to find group coordinator\), re-creating/.test(h.detail)),
        Boolean,
        {
          timeoutMs: 30_000,
        },
      );
      const crashedAt = groups.history.findIndex((h) => h.detail.includes('re-creating'));
      expect(groups.ready()).toBe(false); // readiness turns down at once, before the new consumer is in
      await pollUntil('a new consumer in the group', async () => groups.ready(), Boolean, { timeoutMs: 60_000 });
      expect(groups.history.slice(crashedAt).at(-1)).toEqual({ group, joined: true, detail: `member of ${group}` });
      expect(faults.consumersMade).toBe(2);

      const after = ids('after', 20);
      await publish(after);
      await pollUntil('every event after the crash handled', async () => [...after, 'trigger'].every((id) => count(id) > 0), Boolean, {
        timeoutMs: 30_000,
      });
      await pollUntil('everything committed through the new consumer', async () => (await lag(group, topic)) === 0, Boolean, {
        timeoutMs: 30_000,
      });
      expect([...after, 'trigger'].filter((id) => count(id) !== 1)).toEqual([]);
      expect(ids('before', 6).filter((id) => count(id) < 1)).toEqual([]);
    } finally {
      restore();
      await member.close();
      await own.disconnect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    }
  }, 120_000);

  it('gives up after the out-of-group bound: onStuck is called (the process would leave for its supervisor)', async () => {
    const topic = `${TOPIC}-stuck`;
    const group = `${GROUP}-stuck`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
    @Controller()
    class Quiet {
      @EventPattern(topic)
      handle(): Promise<void> {
        return Promise.resolve();
      }
    }
    const { faults, restore } = injectFaults(group);
    const groups = new RecordingGroups();
    const stuck: Array<{ groupId: string; outForMs: number }> = [];
    const moduleRef = await Test.createTestingModule({ controllers: [Quiet] }).compile();
    const member = moduleRef.createNestMicroservice({
      strategy: new KafkaServer({
        connection,
        groupId: group,
        maxInFlight: 2,
        groups,
        maxOutOfGroupMs: 3_000,
        onStuck: (groupId, outForMs) => stuck.push({ groupId, outForMs }),
      }),
    });
    try {
      await member.listen();
      await pollUntil('the consumer in its group', async () => groups.ready(), Boolean, { timeoutMs: 30_000 });
      faults.crashNext = true;
      faults.refuseConnect = true; // every new consumer fails to connect: it cannot get back in
      const own = createKafka(connection).producer();
      await own.connect();
      await own.send({ topic, messages: [{ key: 'k', value: '{}' }] });
      await own.disconnect();
      await pollUntil(
        'onStuck called',
        async () => stuck.length,
        (n) => n > 0,
        { timeoutMs: 30_000 },
      );
      expect(stuck).toHaveLength(1);
      expect(stuck[0].groupId).toBe(group);
      expect(stuck[0].outForMs).toBeGreaterThanOrEqual(3_000);
      expect(groups.ready()).toBe(false);
      expect(faults.consumersMade).toBeGreaterThan(1); // it kept trying meanwhile
    } finally {
      restore();
      await member.close();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    }
  }, 60_000);
});

/** Messages of `topic` the group has not committed yet, over every partition. */
async function lag(groupId: string, topic: string): Promise<number> {
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const ends = await admin.fetchTopicOffsets(topic);
  return ends.reduce((sum, { partition, high }) => {
    const at = Number(committed.partitions.find((p) => p.partition === partition)?.offset ?? -1);
    return sum + Number(high) - Math.max(at, 0);
  }, 0);
}
