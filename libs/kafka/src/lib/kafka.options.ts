import { KafkaOptions, Transport } from '@nestjs/microservices';
import { logLevel } from 'kafkajs';

export interface KafkaConnection {
  brokers: string[];
  /** Names the process in broker logs and metrics: `<service>-<pid>`. */
  clientId: string;
}

/** Retries long enough to ride out a broker restart (about a minute) instead of crashing the process. */
const RETRY = { initialRetryTime: 200, retries: 12, maxRetryTime: 10_000 };

export const kafkaClientConfig = (conn: KafkaConnection) => ({
  clientId: conn.clientId,
  brokers: conn.brokers,
  retry: RETRY,
  logLevel: logLevel.WARN,
});

/**
 * Options of a service's Kafka server (the consuming side). One consumer group per service, so two
 * services never steal each other's partitions; reading from the beginning when the group is new so
 * that nothing published before a service's first start is lost.
 */
export function kafkaServerOptions(conn: KafkaConnection, groupId: string, concurrency: number): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: kafkaClientConfig(conn),
      consumer: { groupId, sessionTimeout: 15_000, heartbeatInterval: 3_000, allowAutoTopicCreation: false },
      subscribe: { fromBeginning: true },
      run: { partitionsConsumedConcurrently: concurrency },
      // Replies only: a duplicate reply is ignored by the waiting client, so they may pipeline.
      producer: { allowAutoTopicCreation: false },
      // Nest appends '-server' to ids unless told otherwise; group ids are ours to name.
      postfixId: '',
    },
  };
}
