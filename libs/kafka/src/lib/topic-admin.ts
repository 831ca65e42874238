import { CommonConfig } from '@partner/config';
import { eventTopics, requestTopics, topicsOf } from '@partner/contracts';
import { KafkaConnection } from './kafka-client';
import { kafkaClient } from './kafka-client.factory';

/**
 * Every shared topic the system uses: commands and queries, and domain events. Replies go to a topic of
 * each requesting process's own, which that process creates (MessageBus).
 */
export function allTopics(): string[] {
  return [...requestTopics, ...eventTopics];
}

/** How the project's topics are laid out on the cluster (KAFKA_PARTITIONS, KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS). */
export interface TopicLayout {
  partitions: number;
  replicationFactor: number;
  minInsyncReplicas: number;
}

export const topicLayout = (config: CommonConfig): TopicLayout => ({
  partitions: config.KAFKA_PARTITIONS,
  replicationFactor: config.KAFKA_REPLICATION_FACTOR,
  minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS,
});

/** How long start-up keeps trying to see every topic with a leader before it gives up (fail fast, clearly). */
const TOPICS_READY_WITHIN_MS = 30_000;

/**
 * Creates the project's topics when missing (the broker does not auto-create them) and returns once every
 * one of them has a leader on every partition. Idempotent, so every process runs it at start-up without
 * coordination. Several processes starting on a fresh broker race here: one creates a topic while another
 * already asks for its metadata, and the broker answers "does not host this topic-partition" until the
 * controller's metadata reaches it (KRaft propagates it asynchronously). Such retriable answers are waited
 * out, with a deadline; kafkajs's own `waitForLeaders` retries only "leader not available".
 */
export async function ensureTopics(conn: KafkaConnection, layout: TopicLayout, topics: string[] = allTopics()): Promise<string[]> {
  const admin = kafkaClient(conn).admin();
  await admin.connect();
  try {
    const deadline = Date.now() + TOPICS_READY_WITHIN_MS;
    let created: string[] | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        if (!created) {
          const existing = new Set(await admin.listTopics());
          const missing = topics.filter((t) => !existing.has(t));
          // Another process may create some of them meanwhile: that is no error.
          if (missing.length > 0) {
            await admin.createTopics(
              missing.map((topic) => ({
                topic,
                numPartitions: layout.partitions,
                replicationFactor: layout.replicationFactor,
                configs: { 'min.insync.replicas': String(layout.minInsyncReplicas) },
              })),
            );
          }
          created = missing;
        }
        const withoutLeader = (await admin.partitionLeaders(topics))
          .filter((t) => t.leaders.length === 0 || t.leaders.some((leader) => leader < 0))
          .map((t) => t.name);
        if (withoutLeader.length === 0) return created;
        throw Object.assign(new Error(`topics without a leader yet: ${withoutLeader.join(', ')}`), { retriable: true });
      } catch (error) {
        const retriable = (error as { retriable?: boolean }).retriable === true;
        if (!retriable || Date.now() >= deadline) {
          // Failed creations come as one "Topic creation errors" with the broker's reasons inside (both clients).
          const reasons = (error as { errors?: Error[] }).errors?.map((e) => e.message) ?? [];
          const detail = [(error as Error).message, ...new Set(reasons)].join(': ');
          throw new Error(`Kafka topics not ready after ${attempt} attempt(s): ${detail}`, { cause: error });
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * attempt, 1_000)));
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Checks that every topic exists, for an app that does not create them (KAFKA_CREATE_TOPICS=false): stops
 * the start with the missing topics named and what makes them. An app's principal sees only the topics its
 * ACLs name (the broker hides the others from it): those are the ones checked.
 */
export async function verifyTopics(conn: KafkaConnection, topics: string[] = topicsOf(conn.sasl?.username)): Promise<void> {
  const admin = kafkaClient(conn).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      throw new Error(
        `Kafka topics missing: ${missing.join(', ')}. With KAFKA_CREATE_TOPICS=false the deploy step creates them, with the ACLs that let this app see them: npm run kafka:setup (docker-compose.yml: the kafka-setup service).`,
      );
    }
  } finally {
    await admin.disconnect();
  }
}

/** Creates the missing topics, or only checks them, as the app's KAFKA_CREATE_TOPICS says. */
export async function prepareTopics(conn: KafkaConnection, config: CommonConfig): Promise<string[]> {
  if (config.KAFKA_CREATE_TOPICS) return ensureTopics(conn, topicLayout(config));
  await verifyTopics(conn);
  return [];
}

/** Liveness of the broker itself, for readiness probes. */
export async function probeBroker(conn: KafkaConnection): Promise<number> {
  const admin = kafkaClient(conn).admin({ retries: 0 });
  await admin.connect();
  try {
    return await admin.brokerCount();
  } finally {
    await admin.disconnect();
  }
}
