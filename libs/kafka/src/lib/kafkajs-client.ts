import { connect as netConnect, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Logger } from '@nestjs/common';
import { RequestContexts } from '@partner/runtime';
import {
  Admin,
  CompressionTypes,
  Consumer,
  ISocketFactory,
  Kafka,
  KafkaConfig,
  logCreator,
  logLevel,
  Partitioners,
  Producer,
  SASLOptions,
} from 'kafkajs';
import { KafkaConnection, RETRY, retried } from './kafka-client';
import {
  BusAdmin,
  BusProducer,
  ConsumerSettings,
  ConsumeSpec,
  GroupConsumer,
  GroupConsumerEvents,
  KafkaClient,
  NewTopic,
  PartitionOffset,
  TopicMessages,
} from './kafka-port';
import { assertKafkajsPatched } from './kafkajs-patch.check';

/**
 * kafkajs's own socket factory leaves Nagle's algorithm on: a small produce request then waits for the
 * previous one's ACK (up to 40 ms with delayed ACKs) before it leaves. Request-reply is all small writes.
 */
const noDelaySocketFactory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
  const socket: Socket = ssl ? tlsConnect({ host, port, servername: host, ...ssl }, onConnect) : netConnect({ host, port }, onConnect);
  socket.setKeepAlive(true, 60_000);
  socket.setNoDelay(true);
  return socket;
};

/** The fields of a kafkajs log entry worth keeping; never a message's key or value (a key may hold a CPF). */
const KAFKAJS_FIELDS = ['broker', 'clientId', 'groupId', 'topic', 'partition', 'retryCount', 'retryTime', 'error'] as const;

/**
 * kafkajs's lines go through the app's logger (pino JSON, masked like every line) instead of kafkajs's
 * own console output. They concern connections shared by every request, so they are written outside
 * any request context rather than under whichever request happened to be running.
 */
const toAppLogger: logCreator = () => {
  const logger = new Logger('kafkajs');
  return ({ namespace, level, log }) => {
    const details = KAFKAJS_FIELDS.filter((f) => log[f] !== undefined).map((f) => `${f}=${String(log[f])}`);
    const line = `${namespace ? `[${namespace}] ` : ''}${log.message}${details.length ? ` (${details.join(', ')})` : ''}`;
    RequestContexts.outside(() => {
      if (level === logLevel.ERROR || level === logLevel.NOTHING) logger.error(line);
      else if (level === logLevel.WARN) logger.warn(line);
      else if (level === logLevel.INFO) logger.log(line);
      else logger.debug(line);
    });
  };
};

/**
 * Every kafkajs client of the project is configured here, so the installed kafkajs is checked here too: the
 * first client of a process fails unless it is the patched 2.2.4 (docs/adr/0027-kafkajs-risk-and-a-way-out.md).
 */
export function kafkaClientConfig(conn: KafkaConnection): KafkaConfig {
  assertKafkajsPatched();
  return {
    clientId: conn.clientId,
    brokers: conn.brokers,
    ...(conn.ssl ? { ssl: conn.ssl } : {}),
    ...(conn.sasl ? { sasl: conn.sasl as SASLOptions } : {}),
    retry: RETRY,
    logLevel: logLevel.WARN,
    logCreator: toAppLogger,
    socketFactory: noDelaySocketFactory,
  };
}

/** The one way the project builds a kafkajs client (apps never do it by hand). */
export const createKafka = (conn: KafkaConnection): Kafka => new Kafka(kafkaClientConfig(conn));

/**
 * A producer as every process of ours makes one. Its partitioner is named: kafkajs's default since 2.0
 * (the Java client's murmur2, so keys land where other clients put them); named explicitly, kafkajs no
 * longer warns about the 2.0 change at every producer's creation. Topics are never auto-created (a
 * deploy step creates them). `idempotent`: one request in flight and no duplicate on a retried send,
 * which keeps the outbox relay's events unduplicated and in order.
 */
export function createProducer(kafka: Kafka, { idempotent = false }: { idempotent?: boolean } = {}): Producer {
  return kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    ...(idempotent ? { idempotent: true, maxInFlightRequests: 1 } : {}),
  });
}

/** libs/kafka's client port on kafkajs (kafka-port.ts): the design's client, used as it always was. */
export class KafkajsClient implements KafkaClient {
  readonly name = 'kafkajs';
  private readonly kafka: Kafka;

  constructor(private readonly conn: KafkaConnection) {
    this.kafka = createKafka(conn);
  }

  producer({ idempotent = false }: { idempotent?: boolean } = {}): BusProducer {
    const producer = createProducer(this.kafka, { idempotent });
    return {
      connect: () => producer.connect(),
      disconnect: () => producer.disconnect(),
      sendBatch: async (acks: -1 | 1, topicMessages: TopicMessages[]) => {
        await producer.sendBatch({ acks, compression: CompressionTypes.None, topicMessages });
      },
    };
  }

  consumer(settings: ConsumerSettings): GroupConsumer {
    return new KafkajsGroupConsumer(this.kafka.consumer({ ...settings, allowAutoTopicCreation: false }));
  }

  admin({ retries }: { retries?: number } = {}): BusAdmin {
    const kafka = retries === undefined ? this.kafka : new Kafka({ ...kafkaClientConfig(this.conn), retry: { retries } });
    return new KafkajsAdmin(kafka.admin());
  }
}

class KafkajsGroupConsumer implements GroupConsumer {
  constructor(private readonly consumer: Consumer) {}

  on<E extends keyof GroupConsumerEvents>(event: E, listener: GroupConsumerEvents[E]): void {
    const { events } = this.consumer;
    const on = this.consumer.on.bind(this.consumer);
    if (event === 'joined') {
      const joined = listener as GroupConsumerEvents['joined'];
      on(events.GROUP_JOIN, ({ payload }) => joined(payload.memberAssignment));
    } else if (event === 'crashed') {
      const crashed = listener as GroupConsumerEvents['crashed'];
      on(events.CRASH, ({ payload }) => crashed(payload.error, payload.restart));
    } else if (event === 'stopped') on(events.STOP, () => (listener as GroupConsumerEvents['stopped'])());
    else on(events.DISCONNECT, () => (listener as GroupConsumerEvents['disconnected'])());
  }

  async run(spec: ConsumeSpec): Promise<void> {
    const { topics, fromBeginning, seek = [], eachBatch, autoResolve = false, partitionsConsumedConcurrently = 1 } = spec;
    await this.consumer.connect();
    await retried(`subscribing to ${topics.join(', ')}`, () => this.consumer.subscribe({ topics, fromBeginning }));
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: autoResolve,
      partitionsConsumedConcurrently,
      eachBatch: (payload) =>
        eachBatch({
          topic: payload.batch.topic,
          partition: payload.batch.partition,
          messages: payload.batch.messages,
          isActive: () => payload.isRunning() && !payload.isStale(),
          resolveOffset: (offset) => payload.resolveOffset(offset),
          heartbeat: () => payload.heartbeat(),
        }),
    });
    for (const position of seek) this.consumer.seek(position);
  }

  commit(offsets: PartitionOffset[]): Promise<void> {
    return this.consumer.commitOffsets(offsets);
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }

  disconnect(): Promise<void> {
    return this.consumer.disconnect();
  }
}

class KafkajsAdmin implements BusAdmin {
  constructor(private readonly admin: Admin) {}

  connect(): Promise<void> {
    return this.admin.connect();
  }

  disconnect(): Promise<void> {
    return this.admin.disconnect();
  }

  listTopics(): Promise<string[]> {
    return this.admin.listTopics();
  }

  async createTopics(topics: NewTopic[], { waitForLeaders = false }: { waitForLeaders?: boolean } = {}): Promise<void> {
    // kafkajs answers false, not an error, for a topic that exists already.
    await this.admin.createTopics({
      waitForLeaders,
      topics: topics.map(({ topic, numPartitions, replicationFactor, configs = {} }) => ({
        topic,
        numPartitions,
        replicationFactor,
        configEntries: Object.entries(configs).map(([name, value]) => ({ name, value })),
      })),
    });
  }

  async partitionLeaders(topics: string[]): Promise<Array<{ name: string; leaders: number[] }>> {
    const metadata = await this.admin.fetchTopicMetadata({ topics });
    return metadata.topics.map((t) => ({ name: t.name, leaders: t.partitions.map((p) => p.leader) }));
  }

  deleteTopics(topics: string[], timeoutMs: number): Promise<void> {
    return this.admin.deleteTopics({ topics, timeout: timeoutMs });
  }

  async topicEnds(topic: string): Promise<Array<{ partition: number; high: string }>> {
    return (await this.admin.fetchTopicOffsets(topic)).map(({ partition, high }) => ({ partition, high }));
  }

  async brokerCount(): Promise<number> {
    return (await this.admin.describeCluster()).brokers.length;
  }
}
