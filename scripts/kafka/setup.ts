/**
 * `npm run kafka:topics`: the deploy step that creates the project's topics on a cluster, with the
 * cluster's layout: KAFKA_PARTITIONS, KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS, and the
 * connection settings every app uses (KAFKA_BROKERS, KAFKA_SSL*, KAFKA_SASL_*). Idempotent: topics that
 * exist are left as they are. Apps started with KAFKA_CREATE_TOPICS=false only check that they exist.
 * docker-compose.yml runs it as the `topics` service.
 */
import { CommonConfig, loadConfig } from '@partner/config';
import { allTopics, ensureTopics, kafkaConnection, topicLayout } from '@partner/kafka';
import { runMain } from '../lib/main';

async function main(): Promise<void> {
  const config = loadConfig(CommonConfig);
  const layout = topicLayout(config);
  const created = await ensureTopics(kafkaConnection(config, `topics-${process.pid}`), layout);
  console.log(
    `kafka:topics: ${allTopics().length} topics present (${created.length} created) with ${layout.partitions} partitions, ` +
      `replication factor ${layout.replicationFactor}, min.insync.replicas ${layout.minInsyncReplicas}`,
  );
}

runMain('kafka:topics', main);
