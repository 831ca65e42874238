import type { KafkaClientName } from '@partner/config';

/**
 * The Kafka client as the rest of libs/kafka sees it: producers, group consumers and an admin, whatever
 * library carries them (KAFKA_CLIENT: kafkajs, the design's, in kafkajs-client.ts; @platformatic/kafka in
 * platformatic-client.ts; docs/adr/0027-kafkajs-risk-and-a-way-out.md). It holds what the transport relies on
 * and nothing more: manual commits, batches handed over in partition order, join and crash events.
 */
export interface KafkaClient {
  readonly name: KafkaClientName;
  /** `idempotent`: no duplicate on a retried send and one request in flight (the outbox relay's order). */
  producer(options?: { idempotent?: boolean }): BusProducer;
  consumer(settings: ConsumerSettings): GroupConsumer;
  /** `retries: 0`: fail at the first refusal (readiness probes). */
  admin(options?: { retries?: number }): BusAdmin;
}

/** A received message, in the shape handlers, dead letters and tracing read (kafkajs's own, which it passes through). */
export interface KafkaMessage {
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | Array<Buffer | string> | undefined>;
  /** Decimal strings, as Kafka's int64s. */
  offset: string;
  timestamp: string;
  attributes: number;
}

export interface OutgoingMessage {
  key?: string | null;
  value: string;
  headers?: Record<string, string>;
}

export interface TopicMessages {
  topic: string;
  messages: OutgoingMessage[];
}

export interface BusProducer {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /**
   * Sends messages of one or more topics together, uncompressed; resolves once acknowledged (`acks`: -1 by
   * every in-sync replica, 1 by the leader). A key maps to the partition the Java client maps it to (murmur2).
   */
  sendBatch(acks: -1 | 1, topicMessages: TopicMessages[]): Promise<void>;
}

/** A position in a partition: the offset of the next message to read (what a commit or a seek names). */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

export interface ConsumerSettings {
  groupId: string;
  sessionTimeout: number;
  heartbeatInterval: number;
  rebalanceTimeout: number;
  /** How long the broker may hold an empty fetch. */
  maxWaitTimeInMs: number;
  /** How much a held fetch waits to gather (unset: answered with the first message). */
  minBytes?: number;
}

/** Messages of one partition, in order, as one fetch brought them. */
export interface ConsumedBatch {
  topic: string;
  partition: number;
  messages: KafkaMessage[];
  /**
   * False once the consumer stops or a rebalance took this partition away (or handed it back since this
   * batch was fetched): hand out none of the rest; the partition's owner reads them from the committed offset.
   */
  isActive(): boolean;
  /** The consumer may fetch on after `offset` (what is committed is the caller's business: `commit`). */
  resolveOffset(offset: string): void;
  /** Keeps the member in its group during a long wait (kafkajs heartbeats only when asked or between batches). */
  heartbeat(): Promise<void>;
}

export interface ConsumeSpec {
  topics: string[];
  /** Where a group without committed offsets starts: the beginning, or the end. */
  fromBeginning: boolean;
  /** Positions to start from instead (applied once it runs); a consumer with them never reads committed offsets. */
  seek?: PartitionOffset[];
  /** Called with each batch, one partition's batches one after the other; the consumer fetches on once it returns. */
  eachBatch: (batch: ConsumedBatch) => Promise<void>;
  /** Every message handed over counts as resolved (consumers that do not `resolveOffset`). */
  autoResolve?: boolean;
  /** How many partitions' batches may be handed over at once. */
  partitionsConsumedConcurrently?: number;
}

/** What a group consumer reports (ADR 0015: no consumer dies silently). */
export interface GroupConsumerEvents {
  /** It joined (or re-joined) its group; `assignment`: its partitions by topic. */
  joined: (assignment: Record<string, number[]>) => void;
  /** It failed; `restarting`: the client restarts it by itself, otherwise it is dead and must be replaced. */
  crashed: (error: Error, restarting: boolean) => void;
  /** It left its group (stopped, or the client gave up on its membership). */
  stopped: () => void;
  /** It is disconnected from the cluster. */
  disconnected: () => void;
}

export interface GroupConsumer {
  on<E extends keyof GroupConsumerEvents>(event: E, listener: GroupConsumerEvents[E]): void;
  /** Connects, subscribes and starts consuming; resolves once running (joining follows: `joined`). */
  run(spec: ConsumeSpec): Promise<void>;
  /** Commits these positions for the group (offsets of the next message to read). */
  commit(offsets: PartitionOffset[]): Promise<void>;
  /** Stops consuming and leaves the group. */
  stop(): Promise<void>;
  disconnect(): Promise<void>;
}

export interface NewTopic {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
  configs?: Record<string, string>;
}

export interface BusAdmin {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  listTopics(): Promise<string[]>;
  /**
   * Creates topics; one that exists already is no error (another process made it). A failure carries
   * `retriable` (true when worth trying again) and, for several topics, `errors`.
   */
  createTopics(topics: NewTopic[], options?: { waitForLeaders?: boolean }): Promise<void>;
  /** Each topic's partitions' leaders (-1: none yet); a topic with no partitions listed is not ready. */
  partitionLeaders(topics: string[]): Promise<Array<{ name: string; leaders: number[] }>>;
  deleteTopics(topics: string[], timeoutMs: number): Promise<void>;
  /** The offset the next message of each partition of `topic` will get. */
  topicEnds(topic: string): Promise<Array<{ partition: number; high: string }>>;
  brokerCount(): Promise<number>;
}
