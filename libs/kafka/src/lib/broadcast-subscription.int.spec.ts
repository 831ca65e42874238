import { createKafka } from './kafkajs-client';
import { kafkaConnectionFromEnv, KafkaConnection } from './kafka-client';
import { loadConfig, CommonConfig } from '@partner/config';
import { ApiKeyRevokedEvent, Topics } from '@partner/contracts';
import { newUuid, pollUntil, testPartnerId } from '@partner/testing';
import { Admin, Producer } from 'kafkajs';
import { BroadcastSubscription } from './broadcast-subscription';
import { kafkaClientFromEnv } from './kafka-client.factory';
import { ensureTopics, topicLayout } from './topic-admin';

// Integration with a real broker: two subscriptions stand for two gateway instances.

const TOPIC = Topics.GatewayApiKeyRevoked;
const connection: KafkaConnection = {
  ...kafkaConnectionFromEnv('spec'),
  clientId: `broadcast-spec-${process.pid}`,
  client: kafkaClientFromEnv(),
};
const revoked = (): ApiKeyRevokedEvent => ({ partner_id: testPartnerId(), key_id: newUuid(), revoked_at: new Date().toISOString() });

let producer: Producer;
let admin: Admin;
const subscriptions: BroadcastSubscription<typeof TOPIC>[] = [];

async function subscribe(): Promise<{ received: ApiKeyRevokedEvent[]; subscription: BroadcastSubscription<typeof TOPIC> }> {
  const received: ApiKeyRevokedEvent[] = [];
  const subscription = new BroadcastSubscription({
    connection,
    topic: TOPIC,
    group: 'broadcast-spec',
    handle: (event) => void received.push(event),
  });
  subscriptions.push(subscription);
  await subscription.start();
  return { received, subscription };
}

const publish = (...values: unknown[]) =>
  producer.send({ topic: TOPIC, messages: values.map((v) => ({ key: newUuid(), value: typeof v === 'string' ? v : JSON.stringify(v) })) });

beforeAll(async () => {
  await ensureTopics(connection, topicLayout(loadConfig(CommonConfig)));
  const kafka = createKafka({ ...connection, clientId: `broadcast-spec-writer-${process.pid}` });
  producer = kafka.producer();
  admin = kafka.admin();
  await Promise.all([producer.connect(), admin.connect()]);
}, 60_000);

afterAll(async () => {
  await Promise.all(subscriptions.map((s) => s.stop()));
  await Promise.all([producer.disconnect(), admin.disconnect()]);
});

describe('BroadcastSubscription', () => {
  it('gives every subscriber every message (a group each), from the end of the topic, validated', async () => {
    const before = revoked();
    await publish(before);
    const [a, b] = await Promise.all([subscribe(), subscribe()]);
    expect(a.subscription.groupId).not.toBe(b.subscription.groupId);
    expect(a.subscription.groupId).toMatch(/^broadcast-spec\./);

    const events = [revoked(), revoked(), revoked()];
    await publish('not json', { partner_id: 'not-a-uuid', key_id: newUuid(), revoked_at: 'x' }, ...events);

    for (const { received } of [a, b]) {
      await pollUntil(
        'every valid message',
        async () => received,
        (r) => r.length >= events.length,
        { timeoutMs: 15_000 },
      );
      // Spread over partitions, so in any order; the invalid ones and the one published before the start are not there.
      expect([...received].sort((x, y) => x.key_id.localeCompare(y.key_id))).toEqual(
        [...events].sort((x, y) => x.key_id.localeCompare(y.key_id)),
      );
    }
  }, 60_000);

  it('commits nothing, so its group leaves nothing behind once stopped', async () => {
    const { subscription } = await subscribe();
    await publish(revoked());
    await subscription.stop();
    const offsets = await admin.fetchOffsets({ groupId: subscription.groupId, topics: [TOPIC] });
    expect(offsets.flatMap((t) => t.partitions).every((p) => p.offset === '-1')).toBe(true);
  }, 60_000);
});
