import { CustomStrategy } from '@nestjs/microservices';
import { ConsumerGroups } from './consumer-groups';
import { KafkaConnection } from './kafka-client';
import { KafkaServer } from './kafka-server';
import { PeriodicJobMetrics } from './periodic-job';

export type { KafkaConnection } from './kafka-client';

/**
 * A service's Kafka server (the consuming side): one consumer group per service for its events (so two
 * services never steal each other's partitions) and one for its requests; `maxInFlight` handlers at once.
 */
export function kafkaServerOptions(
  conn: KafkaConnection,
  groupId: string,
  maxInFlight: number,
  eventFetchWaitMs?: number,
  groups?: ConsumerGroups,
  jobMetrics?: PeriodicJobMetrics,
): CustomStrategy {
  return { strategy: new KafkaServer({ connection: conn, groupId, maxInFlight, eventFetchWaitMs, groups, jobMetrics }) };
}
