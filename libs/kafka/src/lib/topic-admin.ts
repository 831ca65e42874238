import { Kafka } from 'kafkajs';
import { eventTopics, requestTopics } from '@partner/contracts';
import { kafkaClientConfig, KafkaConnection } from './kafka-client';

/**
 * Every shared topic the system uses: commands and queries, and domain events. Replies go to a topic of
 * each requesting process's own, which that process creates (MessageBus).
 */
export function allTopics(): string[] {
  return [...requestTopics, ...eventTopics];
}

/**
 * Creates the project's topics when missing (the broker does not auto-create them). Idempotent, so every process runs it at start-up without coordination.
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
