import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DirectQueryTopic, EventPayload, EventTopic, requestKeyOf, RequestPayload, RequestReply, RequestTopic } from '@partner/contracts';
import { CONTEXT_HEADERS, contextHeaders, RequestContext, RequestContexts } from '@partner/runtime';
import { CONSUMER_TIMINGS, KafkaConnection, retried, runJoined } from './kafka-client';
import { kafkaClient } from './kafka-client.factory';
import { BusProducer, KafkaClient } from './kafka-port';
import { ConsumerGroups } from './consumer-groups';
import { KAFKA_BUS_OPTIONS } from './kafka.tokens';
import { leaveProcess, RecoveringConsumer } from './recovering-consumer';
import { REPLY_HEADERS, ReplyEnvelope } from './reply-envelope';
import { DEADLINE_HEADER, deadlineAfter } from './request-deadline';
import { SendCoalescer } from './send-coalescer';
import { sendSpan, tracedSend } from './trace-context';
import { ServiceUnavailableError } from './service-unavailable.error';
import { checkedReply } from './checked-reply';

export { ServiceUnavailableError };

export interface MessageBusOptions {
  connection: KafkaConnection;
  /**
   * When set, this process sends requests and waits for their replies, on a reply topic of its own.
   * `timeoutMs`: how long a request waits before the caller is told the service is unavailable.
   */
  requests?: {
    timeoutMs: number;
    /**
     * Read-only queries (directQueryTopics) sent another way than Kafka: those it `serves` go there
     * (internal-http's DirectQueryClient; docs/architecture.md: "Direct queries"). Unset: everything goes
     * through Kafka. The bus closes it at shutdown.
     */
    directQueries?: DirectQueries;
    /**
     * A listener replies may come to instead of the reply topic (which stays the fallback), named in each
     * request's `reply_url` header (internal-http's DirectReplyListener; "Direct replies"). Unset: replies
     * come through Kafka only. The bus opens it before the first request and closes it at shutdown.
     */
    replyListener?: ReplyListener;
  };
  /**
   * An idempotent producer with one request in flight keeps the outbox relay's events unduplicated and
   * in order. A process that only sends commands (the gateway) turns it off so its requests pipeline;
   * commands are made safe to repeat by their idempotency keys instead.
   */
  idempotentProducer: boolean;
  /** Replication factor of the reply topic this process creates. */
  replicationFactor?: number;
  /** How long the reply consumer may stay out of its group before the process leaves (ADR 0015); 0 or unset: never. */
  maxOutOfGroupMs?: number;
}

/** A way to send read-only queries other than Kafka, answered as over Kafka (the same handlers, envelope and errors). */
export interface DirectQueries {
  /** Whether `topic` goes this way from this process. */
  serves(topic: string): topic is DirectQueryTopic;
  /** The handler's answer, sent in `context`; fails with ServiceUnavailableError as a request over Kafka does. */
  request(topic: DirectQueryTopic, payload: unknown, context?: RequestContext): Promise<unknown>;
  close(): Promise<void>;
}

/** Where replies may come to besides the reply topic. */
export interface ReplyListener {
  /** Starts taking replies, each handed to `deliver`; resolves with the address requests name (`reply_url`). */
  listen(deliver: (correlationId: string, envelope: ReplyEnvelope) => void): Promise<string>;
  close(): Promise<void>;
}

interface Waiting {
  topic: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
  /** The request's context: a failure reported by the reply consumer is logged under it. */
  context?: RequestContext;
}

/**
 * Correlates requests with replies, whatever carries them: `send` puts a request on the wire, `deliver`
 * is called with every reply that comes back. Kept apart from Kafka so its mapping is unit-tested.
 */
export class RequestReplyChannel {
  private readonly logger = new Logger('MessageBus');
  private readonly waiting = new Map<string, Waiting>();
  private readonly prefix = randomBytes(6).toString('hex');
  private counter = 0;

  constructor(
    private readonly send: (
      topic: string,
      key: string | null,
      value: string,
      correlationId: string,
      deadline: string,
      context?: RequestContext,
    ) => Promise<void>,
    private readonly timeoutMs: number,
  ) {}

  request(topic: string, payload: unknown, key?: string | null, context?: RequestContext): Promise<unknown> {
    const correlationId = `${this.prefix}-${(this.counter++).toString(36)}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(correlationId, new ServiceUnavailableError(topic, 'timed_out')), this.timeoutMs);
      this.waiting.set(correlationId, { topic, resolve, reject, timer, context });
      this.send(topic, key ?? null, JSON.stringify(payload), correlationId, deadlineAfter(this.timeoutMs), context).catch(
        (error: unknown) => this.settle(correlationId, new ServiceUnavailableError(topic, 'unreachable', error)),
      );
    });
  }

  /** A reply arrived. One for a request that already timed out (or another instance's) is ignored. */
  deliver(correlationId: string, envelope: ReplyEnvelope): void {
    const waiting = this.waiting.get(correlationId);
    if (!waiting) return;
    if (envelope.err !== undefined) {
      // The remote handler threw (e.g. its database went away and the transaction rolled back): the caller
      // cannot know the outcome and should retry with the same idempotency key: 503, not a 500 of ours.
      // Replies arrive on the consumer's loop, outside the request: the line is written in its context.
      const log = () => this.logger.error(`Remote handler failed on ${waiting.topic}: ${envelope.err}`);
      if (waiting.context) RequestContexts.run(waiting.context, log);
      else log();
      this.settle(correlationId, new ServiceUnavailableError(waiting.topic, 'failed', envelope.err));
    } else this.settle(correlationId, undefined, envelope.response);
  }

  /** Fails every request still waiting (shutdown). */
  abortAll(): void {
    for (const [id, w] of this.waiting) this.settle(id, new ServiceUnavailableError(w.topic, 'unreachable', 'shutting down'));
  }

  get pending(): number {
    return this.waiting.size;
  }

  private settle(correlationId: string, error: unknown, value?: unknown): void {
    const waiting = this.waiting.get(correlationId);
    if (!waiting) return;
    this.waiting.delete(correlationId);
    clearTimeout(waiting.timer);
    if (error) waiting.reject(error);
    else waiting.resolve(value);
  }
}

/**
 * The only way apps talk to Kafka: typed by the contracts' topic maps, so a payload that does not
 * belong to a topic does not compile.
 *
 * Request-reply: each process that sends requests creates a one-partition reply topic of its own
 * (`replies.<client>.<host>-<pid>-<random>`), consumed by a group of its own that never commits (a
 * reply is only useful to the process waiting for it) and deleted at shutdown. So an instance fetches
 * only its own replies, and any number of gateway instances can run.
 */
@Injectable()
export class MessageBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MessageBus.name);
  private kafka?: KafkaClient;
  private producer?: BusProducer;
  private replyConsumer?: RecoveringConsumer;
  private channel?: RequestReplyChannel;
  private readonly direct?: DirectQueries;
  private replyListener?: ReplyListener;
  readonly replyTopic?: string;
  /** This instance's direct-reply address, when it has a reply listener. */
  replyUrl?: string;
  /** Whether the reply consumer is in its group (the gateway's /readyz reads it). */
  readonly groups = new ConsumerGroups();

  constructor(@Inject(KAFKA_BUS_OPTIONS) private readonly options: MessageBusOptions) {
    this.direct = options.requests?.directQueries;
    if (options.requests) {
      const instance = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`.replace(/[^a-zA-Z0-9._-]/g, '_');
      this.replyTopic = `replies.${options.connection.clientId.replace(/-\d+$/, '')}.${instance}`.slice(0, 240);
    }
  }

  async onModuleInit(): Promise<void> {
    const kafka = kafkaClient(this.options.connection);
    const producer = kafka.producer({ idempotent: this.options.idempotentProducer });
    this.kafka = kafka;
    this.producer = producer;
    await producer.connect();
    if (this.options.requests && this.replyTopic) await this.openReplies(kafka, producer, this.replyTopic, this.options.requests.timeoutMs);
  }

  private async openReplies(kafka: KafkaClient, producer: BusProducer, topic: string, timeoutMs: number): Promise<void> {
    // The broker may answer "does not host this topic-partition" for a moment after creating a topic,
    // above all while other processes create theirs: each step is retried until it goes through.
    const admin = kafka.admin();
    await admin.connect();
    try {
      await retried(`creating the reply topic ${topic}`, () =>
        admin.createTopics(
          [
            {
              topic,
              numPartitions: 1,
              replicationFactor: this.options.replicationFactor ?? 1,
              // Replies are useless after the request timed out; a topic left by a killed process stays small.
              configs: { 'retention.ms': String(60 * 60_000) },
            },
          ],
          { waitForLeaders: true },
        ),
      );
      await retried(`waiting for the leader of ${topic}`, async () => {
        const [reply] = await admin.partitionLeaders([topic]);
        if (!(reply?.leaders[0] >= 0)) throw new Error(`reply topic ${topic} has no leader yet`);
      });
    } finally {
      await admin.disconnect();
    }
    // Direct replies first: the listener must be bound before a request can name it.
    const listener = this.options.requests?.replyListener;
    if (listener) {
      this.replyListener = listener;
      this.replyUrl = await listener.listen((correlationId, envelope) => this.channel?.deliver(correlationId, envelope));
      this.logger.log(`Replies come to ${this.replyUrl} (direct), or on ${topic}`);
    }
    const replyTo = { [REPLY_HEADERS.topic]: topic, ...(this.replyUrl ? { [REPLY_HEADERS.url]: this.replyUrl } : {}) };
    // Commands are durable once acknowledged by all in-sync replicas; sends of one tick share a request.
    const commands = new SendCoalescer(producer, -1);
    const channel = new RequestReplyChannel((t, key, value, correlationId, deadline, context) => {
      // Called synchronously by request(), so the current trace context is still the caller's.
      const traced = sendSpan(t, key);
      return tracedSend(
        [traced],
        commands.send(t, {
          key,
          value,
          // The request's id and partner ride along, so the service logs (and stamps its events) with them.
          // The deadline lets the service drop the command once this instance has stopped waiting (ADR 0016).
          headers: {
            ...replyTo,
            [REPLY_HEADERS.correlationId]: correlationId,
            [DEADLINE_HEADER]: deadline,
            ...contextHeaders(CONTEXT_HEADERS, context),
            ...traced.headers,
          },
        }),
      );
    }, timeoutMs);
    this.channel = channel;
    // The group never commits: a consumer re-created after a crash (ADR 0015) resumes after the last
    // reply read rather than at the topic's beginning.
    let next: string | undefined;
    this.replyConsumer = new RecoveringConsumer({
      groupId: topic,
      groups: this.groups,
      maxOutOfGroupMs: this.options.maxOutOfGroupMs ?? 0,
      onStuck: leaveProcess,
      create: () => kafka.consumer({ groupId: topic, ...CONSUMER_TIMINGS }),
      // From the beginning of a topic that is new: a reply that arrives before the group is joined is kept.
      run: (consumer) =>
        runJoined(consumer, {
          topics: [topic],
          fromBeginning: true,
          autoResolve: true,
          seek: next === undefined ? [] : [{ topic, partition: 0, offset: next }],
          eachBatch: async ({ messages }) => {
            for (const message of messages) {
              next = String(Number(message.offset) + 1);
              const correlationId = message.headers?.[REPLY_HEADERS.correlationId]?.toString();
              if (!correlationId || !message.value) continue;
              try {
                channel.deliver(correlationId, JSON.parse(message.value.toString()) as ReplyEnvelope);
              } catch (error) {
                this.logger.warn(`Unreadable reply ignored: ${(error as Error).message}`);
              }
            }
          },
        }),
    });
    await this.replyConsumer.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.channel?.abortAll();
    await this.replyListener?.close();
    await this.direct?.close();
    await this.replyConsumer?.disconnect().catch(() => undefined);
    if (this.replyTopic && this.kafka) {
      const admin = this.kafka.admin();
      try {
        await admin.connect();
        await admin.deleteTopics([this.replyTopic], 5_000);
      } catch (error) {
        this.logger.warn(`Reply topic ${this.replyTopic} not deleted (it expires by retention): ${(error as Error).message}`);
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
    await this.producer?.disconnect().catch(() => undefined);
  }

  /**
   * Sends a command or query and waits for its reply. Its key comes from the topic's contract, which keeps
   * one resource's commands in order (a read has none). The current request context
   * (docs/architecture.md: "Request context") goes with it in headers. The reply is checked against the
   * topic's contract (checkedReply): a refusal with a code the topic does not name is a MalformedReplyError.
   */
  async request<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): Promise<RequestReply<T>> {
    const context = RequestContexts.current();
    if (this.direct?.serves(topic)) return checkedReply(topic, await this.direct.request(topic, payload, context));
    if (!this.channel) throw new ServiceUnavailableError(topic, 'unreachable', 'this process does not send requests');
    return checkedReply(topic, await this.channel.request(topic, payload, requestKeyOf(topic, payload), context));
  }

  /**
   * Publishes events, all or nothing per call, in the given order within each key. Only the outbox relay
   * calls it: events leave a service through its outbox, in the transaction of the change they report.
   */
  async publishBatch(
    messages: Array<{ topic: EventTopic; key: string; payload: EventPayload<EventTopic>; headers?: Record<string, string> }>,
  ): Promise<void> {
    const byTopic = new Map<string, Array<{ key: string; value: string; headers?: Record<string, string> }>>();
    for (const m of messages) {
      const list = byTopic.get(m.topic) ?? [];
      list.push({ key: m.key, value: JSON.stringify(m.payload), headers: m.headers });
      byTopic.set(m.topic, list);
    }
    if (!this.producer) throw new Error('MessageBus is not connected');
    await this.producer.sendBatch(
      -1,
      [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    );
  }
}
