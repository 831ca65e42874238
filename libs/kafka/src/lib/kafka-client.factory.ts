import { KAFKA_CLIENTS, KafkaClientName } from '@partner/config';
import { KafkaConnection } from './kafka-client';
import { KafkaClient } from './kafka-port';
import { KafkajsClient } from './kafkajs-client';

/**
 * The one way libs/kafka builds a Kafka client, on the library KAFKA_CLIENT names (apps never build one).
 * @platformatic/kafka is loaded only when chosen: a process on kafkajs never loads it.
 */
export function kafkaClient(conn: KafkaConnection): KafkaClient {
  if ((conn.client ?? 'kafkajs') === 'kafkajs') return new KafkajsClient(conn);
  const { PlatformaticClient } = require('./platformatic-client') as typeof import('./platformatic-client');
  return new PlatformaticClient(conn);
}

/**
 * The client KAFKA_CLIENT names in `env` (kafkajs when unset), for what builds its connection without the app
 * configuration (integration specs; apps go through kafkaConnection). Any other value fails, naming the choices.
 */
export function kafkaClientFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaClientName {
  const value = env.KAFKA_CLIENT || 'kafkajs';
  if (!(KAFKA_CLIENTS as readonly string[]).includes(value))
    throw new Error(`KAFKA_CLIENT must be one of ${KAFKA_CLIENTS.join(', ')}, not "${value}"`);
  return value as KafkaClientName;
}
