import { Logger } from '@nestjs/common';
import {
  Admin,
  BaseOptions,
  compatibilityPartitioner,
  Consumer,
  findErrorBy,
  ListOffsetTimestamps,
  type Message,
  type MessagesStream,
  type MessageToProduce,
  Producer,
  SASLMechanisms,
  stringSerializers,
} from '@platformatic/kafka';
import { RequestContexts } from '@partner/runtime';
import { KafkaConnection, RETRY, retried } from './kafka-client';
import {
  BusAdmin,
  BusProducer,
  ConsumerSettings,
  ConsumeSpec,
  GroupConsumer,
  GroupConsumerEvents,
  KafkaClient,
  KafkaMessage,
  NewTopic,
  PartitionOffset,
  TopicMessages,
} from './kafka-port';

const SASL_MECHANISMS = {
  plain: SASLMechanisms.PLAIN,
  'scram-sha-256': SASLMechanisms.SCRAM_SHA_256,
  'scram-sha-512': SASLMechanisms.SCRAM_SHA_512,
} as const;

/** The settings every @platformatic/kafka client of the process shares: brokers, TLS, SASL, and kafkajs's retry schedule (RETRY). */
function baseOptions(conn: KafkaConnection, retries: number = RETRY.retries): BaseOptions {
  return {
    clientId: conn.clientId,
    bootstrapBrokers: conn.brokers,
    retries,
    retryDelay: (_client, _operation, attempt) => Math.min(RETRY.maxRetryTime, RETRY.initialRetryTime * 2 ** Math.max(0, attempt - 1)),
    autocreateTopics: false,
    ...(conn.ssl ? { tls: conn.ssl === true ? {} : conn.ssl } : {}),
    ...(conn.sasl ? { sasl: { ...conn.sasl, mechanism: SASL_MECHANISMS[conn.sasl.mechanism] } } : {}),
  };
}

/**
 * The Java client's partitioner for keyed messages (murmur2, as kafkajs's DefaultPartitioner: a key lands
 * where every other client puts it; @platformatic/kafka's own default differs), and round robin for messages
 * without a key. The producer takes the result modulo the topic's partitions.
 */
export function javaCompatiblePartitioner(): (
  message: MessageToProduce<string, string, string, string>,
  key: Buffer | undefined,
) => number {
  let next = 0;
  return (message, key) => (key ? compatibilityPartitioner(message, key) : next++ & 0x7fffffff);
}

/** How long a crashed consumer waits before trying to leave its group again (its broker is away). */
const LEAVE_RETRY_MS = 1_000;

/** @platformatic/kafka has no log hook: its failures reach us as errors and events, logged here outside any request. */
const logger = new Logger('platformatic-kafka');
const logOutside = (level: 'warn' | 'error', line: string) => RequestContexts.outside(() => logger[level](line));

/**
 * libs/kafka's client port on @platformatic/kafka (kafka-port.ts), an opt-in alternative to kafkajs
 * (KAFKA_CLIENT=platformatic; docs/adr/0027-kafkajs-risk-and-a-way-out.md).
 */
export class PlatformaticClient implements KafkaClient {
  readonly name = 'platformatic';

  constructor(private readonly conn: KafkaConnection) {}

  producer({ idempotent = false }: { idempotent?: boolean } = {}): BusProducer {
    return new PlatformaticProducer(this.conn, idempotent);
  }

  consumer(settings: ConsumerSettings): GroupConsumer {
    return new PlatformaticGroupConsumer(this.conn, settings);
  }

  admin({ retries }: { retries?: number } = {}): BusAdmin {
    return new PlatformaticAdmin(this.conn, retries);
  }
}

class PlatformaticProducer implements BusProducer {
  private readonly producer: Producer<string, string, string, string>;

  constructor(conn: KafkaConnection, idempotent: boolean) {
    this.producer = new Producer({
      ...baseOptions(conn),
      serializers: stringSerializers,
      partitioner: javaCompatiblePartitioner(),
      // As kafkajs's: no duplicate on a retried send, and one request in flight keeps the order.
      ...(idempotent ? { idempotent: true, maxInflights: 1 } : {}),
    });
  }

  /** It connects at its first send; here it only learns the cluster, so that an unreachable broker fails the start. */
  async connect(): Promise<void> {
    await this.producer.metadata({ topics: [] });
  }

  async disconnect(): Promise<void> {
    await this.producer.close();
  }

  async sendBatch(acks: -1 | 1, topicMessages: TopicMessages[]): Promise<void> {
    const messages: Array<MessageToProduce<string, string, string, string>> = [];
    for (const { topic, messages: list } of topicMessages)
      for (const m of list) messages.push({ topic, key: m.key ?? undefined, value: m.value, headers: m.headers });
    await this.producer.send({ acks, compression: 'none', messages });
  }
}

const bufferOrNull = (value: Buffer | undefined): Buffer | null => value ?? null;

function toKafkaMessage(m: Message): KafkaMessage {
  const headers: Record<string, Buffer> = {};
  for (const [key, value] of m.headers) headers[key.toString()] = value;
  return {
    key: bufferOrNull(m.key),
    value: bufferOrNull(m.value),
    headers,
    offset: String(m.offset),
    timestamp: String(m.timestamp),
    attributes: 0,
  };
}

/**
 * A group consumer over @platformatic/kafka's stream of messages. What the transport relies on, and how:
 * - order: the stream yields each partition's messages in offset order, handed over one batch at a time, the
 *   next only once `eachBatch` returned (back-pressure: a busy transport stops the stream, and its fetches);
 * - commits: manual only (`autocommit: false`), of the positions the caller names;
 * - a rebalance: the stream refetches from the committed offsets; a message of a partition no longer
 *   assigned, or assigned again since it was fetched, is inactive (kafkajs's `isStale`);
 * - failures (ADR 0015): a stream error, a consumer error (a failed re-join) or stalled heartbeats are
 *   a crash this client does not restart: `crashed` with `restarting` false, and the RecoveringConsumer makes a new one.
 * Heartbeats run on the client's own timer, so `heartbeat()` has nothing to do.
 */
class PlatformaticGroupConsumer implements GroupConsumer {
  private readonly consumer: Consumer;
  private readonly listeners: { [E in keyof GroupConsumerEvents]: Array<GroupConsumerEvents[E]> } = {
    joined: [],
    crashed: [],
    stopped: [],
    disconnected: [],
  };
  private stream?: MessagesStream<Buffer, Buffer, Buffer, Buffer>;
  private loop?: Promise<void>;
  private stopping = false;
  private dead = false;
  /** Closing after a crash; `retryLeave` cuts its wait short. */
  private leaving = false;
  private retryLeave?: () => void;
  /** Each assigned partition (`topic:partition`) and the generation of the group that assigned it. */
  private assigned = new Map<string, number>();

  constructor(
    conn: KafkaConnection,
    private readonly settings: ConsumerSettings,
  ) {
    this.consumer = new Consumer({
      ...baseOptions(conn),
      groupId: settings.groupId,
      sessionTimeout: settings.sessionTimeout,
      heartbeatInterval: settings.heartbeatInterval,
      rebalanceTimeout: settings.rebalanceTimeout,
      maxWaitTime: settings.maxWaitTimeInMs,
      minBytes: settings.minBytes ?? 1,
      autocommit: false,
    });
    this.consumer.on('consumer:group:join', ({ assignments = [], generationId = 0 }) => {
      // A dead consumer that re-joined (its close failed while the broker was away): out again, now that it can.
      if (this.dead) return this.retryLeave?.();
      const assigned = new Map<string, number>();
      const byTopic: Record<string, number[]> = {};
      for (const { topic, partitions } of assignments) {
        byTopic[topic] = partitions;
        for (const partition of partitions) {
          const key = `${topic}:${partition}`;
          assigned.set(key, this.assigned.get(key) ?? generationId);
        }
      }
      this.assigned = assigned;
      for (const listener of this.listeners.joined) listener(byTopic);
    });
    this.consumer.on('consumer:group:leave', () => {
      this.assigned = new Map();
      for (const listener of this.listeners.stopped) listener();
    });
    this.consumer.on('client:close', () => {
      for (const listener of this.listeners.disconnected) listener();
    });
    this.consumer.on('error', (error: Error) => this.crash(error));
    this.consumer.on('consumer:heartbeat:stalled', ({ lastError, stalledFor }) =>
      this.crash(new Error(`no heartbeat for ${Math.round(stalledFor / 1000)} s${lastError ? `: ${lastError.message}` : ''}`)),
    );
  }

  on<E extends keyof GroupConsumerEvents>(event: E, listener: GroupConsumerEvents[E]): void {
    this.listeners[event].push(listener);
  }

  async run(spec: ConsumeSpec): Promise<void> {
    const { topics, fromBeginning, seek = [], eachBatch } = spec;
    const stream = await retried(`subscribing to ${topics.join(', ')}`, () =>
      this.consumer.consume({
        topics,
        autocommit: false,
        ...(seek.length > 0
          ? {
              mode: 'manual' as const,
              offsets: seek.map(({ topic, partition, offset }) => ({ topic, partition, offset: BigInt(offset) })),
            }
          : { mode: 'committed' as const }),
        fallbackMode: fromBeginning ? 'earliest' : 'latest',
      }),
    );
    this.stream = stream;
    stream.on('error', () => undefined); // reported by the loop below, which ends with it
    const noop = () => undefined;
    const heartbeat = () => Promise.resolve();
    this.loop = (async () => {
      try {
        for await (const m of stream as AsyncIterable<Message>) {
          if (this.stopping) break;
          const key = `${m.topic}:${m.partition}`;
          const generation = (m.metadata.consumer as { generationId?: number } | undefined)?.generationId ?? 0;
          await eachBatch({
            topic: m.topic,
            partition: m.partition,
            messages: [toKafkaMessage(m)],
            isActive: () => !this.stopping && !this.dead && generation >= (this.assigned.get(key) ?? Infinity),
            resolveOffset: noop,
            heartbeat,
          });
        }
        if (!this.stopping) this.crash(new Error('the message stream ended'));
      } catch (error) {
        if (!this.stopping) this.crash(error as Error);
      }
    })();
  }

  private crash(error: Error): void {
    if (this.stopping || this.dead) return;
    this.dead = true;
    logOutside('error', `Consumer of ${this.settings.groupId} failed: ${error.message}`);
    // As kafkajs after a crash it does not restart: out of the group at once, so that its partitions go to
    // the members that consume (a dead member that still heartbeats would keep them).
    void this.leave();
    for (const listener of this.listeners.crashed) listener(error, false);
  }

  /**
   * Closes the dead consumer for good. Its `close` fails while the broker is away (the LeaveGroup cannot be
   * sent) and then leaves the client open: its heartbeat re-joins once the broker is back, as a member that
   * subscribes to nothing, and as the group's leader it assigns the live members no partitions (after a
   * kill -9 of the broker every consumer re-joined and fetched nothing). So: tried again until it closes,
   * and at once when it re-joins.
   */
  private async leave(): Promise<void> {
    if (this.leaving) return;
    this.leaving = true;
    await this.stream?.close().catch(() => undefined);
    for (let attempt = 1; !this.consumer.closed; attempt++) {
      try {
        await this.consumer.close(true);
      } catch (error) {
        if (attempt === 1)
          logOutside(
            'warn',
            `Consumer of ${this.settings.groupId} could not leave its group yet (${(error as Error).message}); trying again`,
          );
      }
      // Also when close resolved and left it open: never a busy loop.
      if (!this.consumer.closed)
        await new Promise<void>((resolve) => {
          this.retryLeave = resolve;
          setTimeout(resolve, LEAVE_RETRY_MS).unref();
        });
    }
  }

  async commit(offsets: PartitionOffset[]): Promise<void> {
    await this.consumer.commit({
      offsets: offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset: BigInt(offset), leaderEpoch: -1 })),
    });
  }

  /** Stops the stream; the member stays in its group, so that what finished since can still be committed, until `disconnect`. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.stream?.close().catch(() => undefined);
    await this.loop;
    for (const listener of this.listeners.stopped) listener();
  }

  async disconnect(): Promise<void> {
    await this.stop();
    await this.consumer
      .close(true)
      .catch((error: Error) => logOutside('warn', `Consumer of ${this.settings.groupId} closed with: ${error.message}`));
  }
}

/** The broker's own words for a refused request (`errorMessage` of its answer), keeping whether it is worth retrying. */
function brokerReason(error: Error): Error {
  const response = findErrorBy(error, 'code', 'PLT_KFK_RESPONSE')?.response as
    { topics?: Array<{ errorMessage?: string | null }> } | undefined;
  const message = response?.topics?.map((t) => t.errorMessage).find(Boolean);
  return message ? Object.assign(new Error(message, { cause: error }), { retriable: retriable(error) }) : error;
}

/** Worth trying again: the broker's answer says so (a topic not hosted yet, a leader being elected) or the network failed. */
function retriable(error: unknown): boolean {
  return findErrorBy(error as Error, 'canRetry', true) !== null || findErrorBy(error as Error, 'code', 'PLT_KFK_NETWORK') !== null;
}

class PlatformaticAdmin implements BusAdmin {
  private readonly admin: Admin;

  constructor(conn: KafkaConnection, retries?: number) {
    this.admin = new Admin(baseOptions(conn, retries));
  }

  /** It connects at its first request. */
  connect(): Promise<void> {
    return Promise.resolve();
  }

  async disconnect(): Promise<void> {
    await this.admin.close();
  }

  listTopics(): Promise<string[]> {
    return this.admin.listTopics();
  }

  async createTopics(topics: NewTopic[], { waitForLeaders = false }: { waitForLeaders?: boolean } = {}): Promise<void> {
    const failures: Error[] = [];
    await Promise.all(
      topics.map(async ({ topic, numPartitions, replicationFactor, configs = {} }) => {
        try {
          await this.admin.createTopics({
            topics: [topic],
            partitions: numPartitions,
            replicas: replicationFactor,
            configs: Object.entries(configs).map(([name, value]) => ({ name, value })),
          });
        } catch (error) {
          if (findErrorBy(error as Error, 'apiId', 'TOPIC_ALREADY_EXISTS') === null) failures.push(brokerReason(error as Error));
        }
      }),
    );
    if (failures.length > 0) {
      throw Object.assign(new Error(`Topic creation errors`), {
        errors: failures,
        retriable: failures.every((f) => (f as { retriable?: boolean }).retriable ?? retriable(f)),
      });
    }
    if (waitForLeaders) {
      const names = topics.map((t) => t.topic);
      await retried(`waiting for the leaders of ${names.join(', ')}`, async () => {
        const notReady = (await this.partitionLeaders(names)).filter((t) => t.leaders.length === 0 || t.leaders.some((l) => l < 0));
        if (notReady.length > 0) throw new Error(`no leader yet: ${notReady.map((t) => t.name).join(', ')}`);
      });
    }
  }

  async partitionLeaders(topics: string[]): Promise<Array<{ name: string; leaders: number[] }>> {
    try {
      const metadata = await this.admin.metadata({ topics, forceUpdate: true });
      return topics.map((name) => ({ name, leaders: metadata.topics.get(name)?.partitions.map((p) => p.leader) ?? [] }));
    } catch (error) {
      throw Object.assign(error as Error, { retriable: retriable(error) });
    }
  }

  async deleteTopics(topics: string[]): Promise<void> {
    await this.admin.deleteTopics({ topics });
  }

  async topicEnds(topic: string): Promise<Array<{ partition: number; high: string }>> {
    const metadata = await this.admin.metadata({ topics: [topic], forceUpdate: true });
    const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
    const listed = await this.admin.listOffsets({
      topics: [
        {
          name: topic,
          partitions: Array.from({ length: count }, (_, partitionIndex) => ({ partitionIndex, timestamp: ListOffsetTimestamps.LATEST })),
        },
      ],
    });
    return (listed[0]?.partitions ?? []).map((p) => ({ partition: p.partitionIndex, high: String(p.offset) }));
  }

  async brokerCount(): Promise<number> {
    return (await this.admin.metadata({ topics: [], forceUpdate: true })).brokers.size;
  }
}
