import { Kafka } from 'kafkajs';
import { eventTopics, replyTopicOf, requestTopics } from '@partner/contracts';
import { kafkaClientConfig, KafkaConnection } from './kafka.options';

/** Every topic the system uses: commands and queries, their reply topics, and domain events. */
export function allTopics(): string[] {
  return [...requestTopics, ...requestTopics.map(replyTopicOf), ...eventTopics];
}

/**
 * Creates the project's topics when missing (the broker does not auto-create them). Reply topics get
 * the same partition count as the rest: every gateway instance needs a partition of each reply topic.
 * Idempotent, so every process runs it at start-up without coordination.
 */
export async function ensureTopics(conn: KafkaConnection, partitions: number): Promise<string[]> {
  const admin = new Kafka(kafkaClientConfig(conn)).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = allTopics().filter((t) => !existing.has(t));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
      });
    }
    return missing;
  } finally {
    await admin.disconnect();
  }
}

/** Liveness of the broker itself, for readiness probes. */
export async function probeBroker(conn: KafkaConnection): Promise<number> {
  const admin = new Kafka({ ...kafkaClientConfig(conn), retry: { retries: 0 } }).admin();
  await admin.connect();
  try {
    const { brokers } = await admin.describeCluster();
    return brokers.length;
  } finally {
    await admin.disconnect();
  }
}
