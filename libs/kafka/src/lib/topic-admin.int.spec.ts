import { createKafka } from './kafkajs-client';
import { kafkaConnectionFromEnv, KafkaConnection } from './kafka-client';
import { randomBytes } from 'node:crypto';
import { Admin } from 'kafkajs';
import { kafkaClientFromEnv } from './kafka-client.factory';
import { ensureTopics, TopicLayout, verifyTopics } from './topic-admin';

// Integration with a real broker: several processes starting at once on topics nobody has created yet,
// the way every app of `npm start` does on a fresh broker.

const fromEnv = kafkaConnectionFromEnv('spec');
const connection = (n: number): KafkaConnection => ({
  ...fromEnv,
  clientId: `topic-admin-spec-${process.pid}-${n}`,
  client: kafkaClientFromEnv(),
});

let admin: Admin;
const created: string[] = [];

beforeAll(async () => {
  admin = createKafka({ ...fromEnv, clientId: `topic-admin-spec-${process.pid}` }).admin();
  await admin.connect();
});

afterAll(async () => {
  if (created.length > 0) await admin.deleteTopics({ topics: created }).catch(() => undefined);
  await admin.disconnect();
});

describe('ensureTopics', () => {
  it('lets every one of several concurrent starters return only once each topic has a leader on every partition', async () => {
    const run = randomBytes(4).toString('hex');
    const topics = Array.from({ length: 12 }, (_, i) => `topic-admin-spec.${run}.t${i}`);
    created.push(...topics);

    // Six starters at once: some create, the others find the topics half-created and must wait, not fail.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        ensureTopics(connection(n), { partitions: 3, replicationFactor: 1, minInsyncReplicas: 1 }, topics),
      ),
    );

    // Each topic was created by someone (at least one starter saw it missing), and every starter saw it whole.
    expect(new Set(results.flat())).toEqual(new Set(topics));
    const metadata = await admin.fetchTopicMetadata({ topics });
    for (const topic of metadata.topics) {
      expect(topic.partitions).toHaveLength(3);
      for (const p of topic.partitions) expect(p.leader).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);

  it('creates nothing when every topic exists', async () => {
    const layout: TopicLayout = { partitions: 2, replicationFactor: 1, minInsyncReplicas: 1 };
    const run = randomBytes(4).toString('hex');
    const topics = [`topic-admin-spec.${run}.only`];
    created.push(...topics);
    expect(await ensureTopics(connection(0), layout, topics)).toEqual(topics);
    expect(await ensureTopics(connection(1), layout, topics)).toEqual([]);
  }, 60_000);

  it('creates topics with the configured replication and min.insync.replicas, and fails clearly when the cluster cannot hold them', async () => {
    const run = randomBytes(4).toString('hex');
    const topic = `topic-admin-spec.${run}.isr`;
    created.push(topic);
    await ensureTopics(connection(0), { partitions: 1, replicationFactor: 1, minInsyncReplicas: 2 }, [topic]);
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: 2, name: topic, configNames: ['min.insync.replicas'] }],
    });
    expect(resources[0].configEntries.find((e) => e.configName === 'min.insync.replicas')?.configValue).toBe('2');

    // One broker cannot hold 3 copies: the start-up step says so at once instead of creating fewer.
    const tooMany = ensureTopics(connection(0), { partitions: 1, replicationFactor: 3, minInsyncReplicas: 2 }, [
      `topic-admin-spec.${run}.rf3`,
    ]);
    // The broker's reason, as each client words it: kafkajs by the error code, @platformatic/kafka with the broker's message.
    await expect(tooMany).rejects.toThrow(
      /^Kafka topics not ready after 1 attempt\(s\): Topic creation errors: (Replication-factor is invalid|Unable to replicate the partition 3 time\(s\))/,
    );
  }, 60_000);

  it('verifyTopics (KAFKA_CREATE_TOPICS=false) passes when the topics exist, and otherwise names the missing ones and creates nothing', async () => {
    const run = randomBytes(4).toString('hex');
    const present = `topic-admin-spec.${run}.present`;
    const absent = `topic-admin-spec.${run}.absent`;
    created.push(present);
    await ensureTopics(connection(0), { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 }, [present]);
    await expect(verifyTopics(connection(0), [present])).resolves.toBeUndefined();
    await expect(verifyTopics(connection(0), [present, absent])).rejects.toThrow(
      `Kafka topics missing: ${absent}. With KAFKA_CREATE_TOPICS=false the deploy step creates them`,
    );
    expect(await admin.listTopics()).not.toContain(absent);
  }, 60_000);
});
