import { readFileSync } from 'node:fs';
import { ConnectionOptions } from 'node:tls';
import { CommonConfig, KafkaClientName, loadConfig } from '@partner/config';
import { ConsumeSpec, GroupConsumer } from './kafka-port';

export interface KafkaConnection {
  brokers: string[];
  /** Names the process in broker logs and metrics: `<service>-<pid>`. */
  clientId: string;
  /** TLS to the brokers: true for the system's CAs, or Node's TLS options (a CA bundle). */
  ssl?: boolean | ConnectionOptions;
  /** SASL PLAIN or SCRAM credentials. */
  sasl?: SaslCredentials;
  /** The client library (KAFKA_CLIENT); unset: kafkajs. */
  client?: KafkaClientName;
}

export interface SaslCredentials {
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
}

/**
 * The connection every client of an app uses, from its validated configuration (KAFKA_BROKERS, KAFKA_SSL,
 * KAFKA_SSL_CA_FILE, KAFKA_SASL_*, KAFKA_CLIENT): apps name the client, never assemble the settings themselves. A CA
 * file that cannot be read stops the app at start-up.
 */
export function kafkaConnection(config: CommonConfig, clientId: string): KafkaConnection {
  const connection: KafkaConnection = { brokers: config.KAFKA_BROKERS, clientId, client: config.KAFKA_CLIENT };
  if (config.KAFKA_SSL) connection.ssl = config.KAFKA_SSL_CA_FILE ? { ca: [readFileSync(config.KAFKA_SSL_CA_FILE, 'utf8')] } : true;
  if (config.KAFKA_SASL_MECHANISM) {
    connection.sasl = {
      mechanism: config.KAFKA_SASL_MECHANISM,
      username: config.KAFKA_SASL_USERNAME,
      password: config.KAFKA_SASL_PASSWORD,
    };
  }
  return connection;
}

/**
 * The connection of a process that is not an app (a spec, a script) from the KAFKA_* variables of `env` alone
 * (KAFKA_BROKERS, KAFKA_SASL_*, KAFKA_SASL_PASSWORD_FILE...), validated as an app's are.
 */
export function kafkaConnectionFromEnv(clientId: string, env: NodeJS.ProcessEnv = process.env): KafkaConnection {
  const kafkaSettings = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('KAFKA_')));
  return kafkaConnection(loadConfig(CommonConfig, { NODE_ENV: 'development', ...kafkaSettings }), clientId);
}

/**
 * Retries long enough to ride out a broker restart (about 75 s: 0.2, 0.4, 0.8, 1.6, then every 2 s)
 * instead of crashing the process. The wait between two attempts is capped at 2 s, not kafkajs's 30 s
 * nor the 10 s used before: a broker back after 9 s was found 6 to 8 s late by clients sleeping a
 * 6.4 s backoff (chaos, 2026-11-26: broker kill -9 recovered in 16.7-17.1 s, 7.8 s of it the broker's
 * own start), and a reconnect attempt every 2 s costs nothing. Both clients follow it.
 */
export const RETRY = { initialRetryTime: 200, retries: 40, maxRetryTime: 2_000 } as const;

/**
 * Consumer group timings. A crashed instance holds its partitions until its session times out, so the
 * session is as short as the broker allows by default (group.min.session.timeout.ms = 6 s).
 *
 * `maxWaitTimeInMs`: how long an idle fetch is held by the broker. kafkajs heartbeats only between fetches,
 * so an idle member learns of a rebalance (an instance joining or leaving) only when its fetch returns, and a
 * leaving member's `stop()` waits for its own. With kafkajs's default of 5 s, measured on an idle group: a
 * joining member got its partitions after 2.1 s, a leaving one took 3.0 s to leave, and the one staying took
 * over all partitions 8.0 s after the other began to leave (a scale-in under load stalls requests for
 * seconds); and an idle member heartbeated every 5 s against a 6 s session. At 1 s:
 * 61 ms, 72 ms and 81 ms. Under load a fetch returns as soon as a message arrives, so nothing changes there;
 * idle, a request consumer asks the broker once a second instead of once every five. Event consumers hold
 * theirs shorter still (KAFKA_EVENT_FETCH_WAIT_MS).
 */
export const CONSUMER_TIMINGS = {
  sessionTimeout: 6_000,
  heartbeatInterval: 1_000,
  rebalanceTimeout: 10_000,
  maxWaitTimeInMs: 1_000,
} as const;

/**
 * Runs a start-up step (`what` names it in the error) until it succeeds, for `withinMs` at most. Right after
 * topics are created the broker may answer "does not host this topic-partition" for a while: seconds on a
 * loaded machine, as long as its leaders take to be elected.
 */
export async function retried<T>(what: string, step: () => Promise<T>, withinMs = 60_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (Date.now() >= deadline)
        throw new Error(`${what}: ${(error as Error).message} (still, after ${withinMs / 1000} s)`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Runs a consumer and resolves once it has joined its group (its partitions assigned). `spec.seek`:
 * positions to start from, instead of the group's committed offsets or `fromBeginning`. Fails when the
 * group is not joined within `timeoutMs`.
 */
export async function runJoined(
  consumer: GroupConsumer,
  spec: ConsumeSpec,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  const joined = new Promise<void>((resolve) => consumer.on('joined', () => resolve()));
  await consumer.run(spec);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`consumer of ${spec.topics.join(', ')} did not join its group within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  await Promise.race([joined, deadline]).finally(() => clearTimeout(timer));
}
