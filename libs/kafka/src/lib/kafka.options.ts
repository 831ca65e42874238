import { CustomStrategy } from '@nestjs/microservices';
import { KafkaServer, KafkaServerOptions } from './kafka-server';

export type { KafkaConnection } from './kafka-client';

/**
 * A service's Kafka server (the consuming side): one consumer group per service for its events (so two
 * services never steal each other's partitions) and one for its requests; `maxInFlight` handlers at once.
 */
export function kafkaServerOptions(options: KafkaServerOptions): CustomStrategy {
  return { strategy: new KafkaServer(options) };
}
