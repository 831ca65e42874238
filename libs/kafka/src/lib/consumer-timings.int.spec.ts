import { kafkaConnectionFromEnv, CONSUMER_TIMINGS, KafkaConnection } from './kafka-client';
import { pollUntil } from '@partner/testing';
import { Admin } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { kafkaClient, kafkaClientFromEnv } from './kafka-client.factory';
import { GroupConsumer } from './kafka-port';
import { createKafka } from './kafkajs-client';

// Through the real broker: an idle group hands its partitions over promptly when an instance joins or
// leaves. kafkajs heartbeats only between fetches, so this holds only while an idle fetch is held for
// about a heartbeat interval (CONSUMER_TIMINGS.maxWaitTimeInMs); with kafkajs's default 5 s, a scale-in of
// an idle group left partitions unconsumed for 8 s, which requests wait through.

const run = randomBytes(4).toString('hex');
const TOPIC = `consumer-timings-spec-${run}`;
const PARTITIONS = 4;
const connection: KafkaConnection = {
  ...kafkaConnectionFromEnv('spec'),
  clientId: `consumer-timings-spec-${process.pid}`,
  client: kafkaClientFromEnv(),
};
/** Measured here, three runs each: 0.5-1.5 s with 1 s held fetches; 3.5-8.5 s with kafkajs's default 5 s. */
const HANDOVER_BOUND_MS = 2_500;
/** Longer than one held fetch: the members are idle, mid-fetch, when the group changes. */
const IDLE_MS = 1_500;

const kafka = kafkaClient(connection);
let admin: Admin;
const consumers: GroupConsumer[] = [];

/** A member of the group and the partitions its last join gave it. */
async function member(groupId: string): Promise<{ consumer: GroupConsumer; owned: () => number[] }> {
  const consumer = kafka.consumer({ groupId, ...CONSUMER_TIMINGS });
  consumers.push(consumer);
  let owned: number[] = [];
  consumer.on('joined', (assignment) => (owned = assignment[TOPIC] ?? []));
  await consumer.run({ topics: [TOPIC], fromBeginning: false, eachBatch: async () => undefined });
  return { consumer, owned: () => owned };
}

const idle = () => new Promise((resolve) => setTimeout(resolve, IDLE_MS));

beforeAll(async () => {
  admin = createKafka(connection).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }], waitForLeaders: true });
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
  await admin.deleteTopics({ topics: [TOPIC] }).catch(() => undefined);
  await admin.disconnect();
});

describe('consumer timings: an idle group rebalances promptly', () => {
  const groupId = `consumer-timings-spec-${run}`;
  let first: Awaited<ReturnType<typeof member>>;
  let second: Awaited<ReturnType<typeof member>>;

  it('a joining member gets its share of the partitions within a few seconds', async () => {
    first = await member(groupId);
    await pollUntil(
      'the first member owning every partition',
      async () => first.owned().length,
      (n) => n === PARTITIONS,
    );
    await idle();
    const started = Date.now();
    second = await member(groupId);
    await pollUntil(
      'both members owning partitions',
      async () => [first.owned().length, second.owned().length],
      ([a, b]) => a > 0 && b > 0 && a + b === PARTITIONS,
      { timeoutMs: 15_000, intervalMs: 20 },
    );
    expect(Date.now() - started).toBeLessThan(HANDOVER_BOUND_MS);
  }, 30_000);

  it('when a member leaves, the one staying takes over every partition within a few seconds', async () => {
    await idle();
    const started = Date.now();
    await second.consumer.disconnect();
    await pollUntil(
      'the staying member owning every partition',
      async () => first.owned().length,
      (n) => n === PARTITIONS,
      {
        timeoutMs: 15_000,
        intervalMs: 20,
      },
    );
    expect(Date.now() - started).toBeLessThan(HANDOVER_BOUND_MS);
  }, 30_000);
});
