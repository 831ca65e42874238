import { Logger } from '@nestjs/common';
import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { CONTEXT_HEADERS, contextFromHeaders, PeriodicJob, PeriodicJobMetrics, RequestContexts } from '@partner/runtime';
import { ConsumerGroups } from './consumer-groups';
import { DeadLetter, DeadLetters, messageOf, UnprocessableEventError } from './dead-letters';
import { leaveProcess, RecoveringConsumer } from './recovering-consumer';
import { CONSUMER_TIMINGS, KafkaConnection } from './kafka-client';
import { kafkaClient } from './kafka-client.factory';
import { BusProducer, ConsumedBatch, GroupConsumer, KafkaClient, KafkaMessage } from './kafka-port';
import { PartitionProgress } from './partition-progress';
import { REPLY_HEADERS, ReplyEnvelope } from './reply-envelope';
import { DEADLINE_HEADER, deadlinePassed } from './request-deadline';
import { SendCoalescer } from './send-coalescer';
import { processSpan, traceHeaders } from './trace-context';

export interface KafkaServerOptions {
  connection: KafkaConnection;
  /** The service's name: its event consumer group; its request consumer group is `<name>.requests`. */
  groupId: string;
  /** Handlers running at once in this process, across all partitions (back-pressure beyond it). */
  maxInFlight: number;
  /** How often finished offsets are committed. */
  commitIntervalMs?: number;
  /** How long the broker may hold a fetch of events to fill it (0 or unset: answer with the first event). */
  eventFetchWaitMs?: number;
  /** Where the consumers report their group membership (the service's readiness reads it). */
  groups?: ConsumerGroups;
  /** Where the offset-commit job counts its runs (the service's /metrics). */
  jobMetrics?: PeriodicJobMetrics;
  /**
   * Sends a reply to the listener a request names in its `reply_url` header (internal-http's
   * DirectReplySender, which holds REPLY_TARGETS). Unset: every reply goes on its reply topic.
   */
  directReplies?: DirectReplies;
  /**
   * How long a consumer may stay out of its group before `onStuck` (default: leave the process, ADR 0015);
   * 0 or unset: never.
   */
  maxOutOfGroupMs?: number;
  onStuck?: (groupId: string, outForMs: number) => void;
  /** Where an event that fails its contract is parked (ADR 0015). Unset (specs only): it is logged and skipped. */
  deadLetters?: DeadLetters;
}

/** One consumer group of the server: its consumer (re-created after a fatal crash) and, per live consumer, its partitions' progress. */
interface Lane {
  consumer: RecoveringConsumer;
  /** The live consumer and its progress; a dead consumer's progress is dropped with it. */
  live?: { consumer: GroupConsumer; progress: Map<string, PartitionProgress> };
}

/**
 * A held event fetch is answered as soon as this much has gathered, whatever the wait left: about 25
 * withdrawal events. Under load that, not the wait, ends each fetch (200 withdrawals/s fill it in about
 * 40 ms), so the batches stay large; idle, the wait alone paces the empty fetches, so they cost little CPU.
 */
const EVENT_FETCH_MIN_BYTES = 16 * 1024;

/** The message a handler gets as its Nest context: `[message, partition, topic]`. */
export class KafkaMessageContext extends BaseRpcContext<[KafkaMessage, number, string]> {}

/**
 * The id of the command a request message carries (its correlation id, one per request the gateway sends):
 * every copy of that message (redelivered, or sent twice by a retrying producer) has the same one, and no
 * other request has it. Undefined for a message sent without one (nobody waits for its answer).
 */
export function commandIdOf(context: KafkaMessageContext): string | undefined {
  return header(context.getArgByIndex(0), REPLY_HEADERS.correlationId);
}

/** The context of a request handled without a broker (the bench's in-process baseline), carrying its command id as a message would. */
export function inProcessContext(topic: string, commandId: string): KafkaMessageContext {
  const message = {
    key: null,
    value: null,
    timestamp: '0',
    attributes: 0,
    offset: '-1',
    headers: { [REPLY_HEADERS.correlationId]: commandId },
  } as KafkaMessage;
  return new KafkaMessageContext([message, -1, topic]);
}

/** The context's message for a request that did not come through Kafka (a direct query). */
const DIRECT_MESSAGE: KafkaMessage = { key: null, value: null, timestamp: '0', attributes: 0, offset: '-1', headers: {} };

/** A counting semaphore: `acquire` waits while `limit` holders are inside. */
class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  acquire(): Promise<void> | void {
    if (this.used < this.limit) {
      this.used++;
      return;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}

const backoffMs = (attempt: number) => Math.min(10_000, 100 * 2 ** Math.min(attempt, 7));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The services' Kafka transport: a Nest custom strategy that runs the `@HandleRequest` / `@HandleEvent`
 * handlers of a service with bounded concurrency across and within partitions.
 *
 * Why not Nest's own ServerKafka: it runs kafkajs `eachMessage`, so a partition's messages run one after
 * the other, only `partitionsConsumedConcurrently` partitions run at once, kafkajs fetches nothing new
 * until every batch of the last fetch is done, and an offset commit is awaited after each batch. Under
 * load that is queueing, not work. Here:
 * - each fetched message is handed to a handler at once (up to `maxInFlight` running, beyond that the
 *   fetch loop waits: back-pressure), and kafkajs is told to fetch on;
 * - messages with the same key run in arrival order (one chain per key); different keys run in parallel;
 * - offsets are committed every `commitIntervalMs`, only up to the oldest message not yet finished;
 * - requests and events have separate consumer groups, so a slow query never delays a projection;
 * - a failing event handler is retried with backoff (its key waits, so order holds); a failing request
 *   handler is answered with an error, which the gateway turns into 503.
 */
export class KafkaServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(KafkaServer.name);
  private kafka?: KafkaClient;
  private producer?: BusProducer;
  private replies?: ReplySender;
  private readonly lanes: Lane[] = [];
  private readonly chains = new Map<string, Promise<void>>();
  /** Handlers by topic: Nest's lookup normalises the pattern on every call (seen in profiles). */
  private readonly handlers = new Map<string, MessageHandler | null>();
  private readonly running = new Set<Promise<void>>();
  private readonly slots: Slots;
  private commits?: PeriodicJob;
  private replays?: PeriodicJob;
  private closing = false;
  /** Each consumer group of this server and whether this member is in it now. */
  readonly groups: ConsumerGroups;

  constructor(private readonly options: KafkaServerOptions) {
    super();
    this.slots = new Slots(options.maxInFlight);
    this.groups = options.groups ?? new ConsumerGroups();
  }

  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  private async start(): Promise<void> {
    const requests: string[] = [];
    const events: string[] = [];
    for (const [pattern, handler] of this.messageHandlers) (handler.isEventHandler ? events : requests).push(pattern);
    this.kafka = kafkaClient(this.options.connection);
    if (requests.length > 0) {
      this.producer = this.kafka.producer();
      await this.producer.connect();
      // A lost reply only makes the gateway time out and the partner retry with the same key: acks=1.
      this.replies = new ReplySender(new SendCoalescer(this.producer, 1), this.options.directReplies, this.logger);
      // Requests older than this consumer have timed out at the gateway: a new group starts at the end.
      await this.consume(this.kafka, `${this.options.groupId}.requests`, requests, false);
    }
    // A new event group starts at the beginning: nothing published before the service's first start is lost.
    if (events.length > 0) {
      const waitMs = this.options.eventFetchWaitMs ?? 0;
      await this.consume(
        this.kafka,
        this.options.groupId,
        events,
        true,
        waitMs > 0 ? { minBytes: EVENT_FETCH_MIN_BYTES, maxWaitTimeInMs: waitMs } : {},
      );
    }
    const deadLetters = this.options.deadLetters;
    if (events.length > 0 && deadLetters) {
      // A service that consumes events parks the unprocessable ones: its table must be there (fail at start, not at the first bad event).
      await deadLetters.store.check();
      // Replays an operator asked for (npm run cli -- dead-letters replay) run here, through the same handlers.
      this.replays = new PeriodicJob({
        name: 'dead-letter-replay',
        intervalMs: 1_000,
        run: () => deadLetters.replayRequested((letter) => this.replay(letter)),
        metrics: this.options.jobMetrics,
      });
      this.replays.start();
    }
    const intervalMs = this.options.commitIntervalMs ?? 200;
    this.commits = new PeriodicJob({ name: 'kafka-offset-commit', intervalMs, run: () => this.commit(), metrics: this.options.jobMetrics });
    this.commits.start();
  }

  private async consume(
    kafka: KafkaClient,
    groupId: string,
    topics: string[],
    fromBeginning: boolean,
    fetch: { minBytes?: number; maxWaitTimeInMs?: number } = {},
  ): Promise<void> {
    // Membership, for readiness, is reported by the RecoveringConsumer: a rebalance keeps the member (it
    // rejoins at once); a crash, a stop or a lost connection does not. A crash kafkajs does not restart
    // makes a new consumer (ADR 0015); the dead one's progress goes with it: handlers it started still
    // finish, but into trackers nobody commits from, and the new consumer starts at the group's committed
    // offset, so what they had not committed is delivered again (and deduplicated by the handlers).
    const lane: Lane = {
      consumer: new RecoveringConsumer({
        groupId,
        groups: this.groups,
        maxOutOfGroupMs: this.options.maxOutOfGroupMs ?? 0,
        onStuck: this.options.onStuck ?? leaveProcess,
        create: () => {
          const consumer = kafka.consumer({ groupId, ...CONSUMER_TIMINGS, ...fetch });
          const progress = new Map<string, PartitionProgress>();
          lane.live = { consumer, progress };
          // After a rebalance, forget partitions this member no longer owns: their finished offsets are not
          // ours to commit any more, and if one comes back it starts from the group's committed offset.
          consumer.on('joined', (assignment) => {
            const owned = new Set<string>();
            for (const [topic, partitions] of Object.entries(assignment)) for (const p of partitions) owned.add(`${topic}:${p}`);
            for (const key of [...progress.keys()]) if (!owned.has(key)) progress.delete(key);
          });
          return consumer;
        },
        run: (consumer) => {
          const progress = lane.live?.consumer === consumer ? lane.live.progress : new Map<string, PartitionProgress>();
          return consumer.run({
            topics,
            fromBeginning,
            partitionsConsumedConcurrently: 4,
            eachBatch: (batch) => this.dispatchBatch(progress, batch),
          });
        },
        retire: (consumer) => {
          if (lane.live?.consumer === consumer) lane.live = undefined;
        },
      }),
    };
    this.lanes.push(lane);
    await lane.consumer.start();
  }

  private async dispatchBatch(progress: Map<string, PartitionProgress>, batch: ConsumedBatch): Promise<void> {
    const partitionKey = `${batch.topic}:${batch.partition}`;
    let tracker = progress.get(partitionKey);
    if (!tracker) progress.set(partitionKey, (tracker = new PartitionProgress()));
    for (const message of batch.messages) {
      if (!batch.isActive() || this.closing) return;
      const offset = Number(message.offset);
      if (!tracker.seen(offset)) {
        if (!(await this.takeSlot(batch))) return;
        tracker.start(offset);
        const owner = tracker;
        const key = `${partitionKey}:${message.key?.toString() ?? `offset:${offset}`}`;
        this.chain(key, async () => {
          try {
            await this.handle(batch.topic, batch.partition, message);
            owner.finish(offset);
          } finally {
            this.slots.release();
          }
        });
      }
      // Fetch on from the next message; what may be committed is decided by `finish`, not by this.
      batch.resolveOffset(message.offset);
    }
    await batch.heartbeat();
  }

  /**
   * Waits for a free handler slot. kafkajs heartbeats only between batches or when asked to, so a long
   * wait (every slot busy, e.g. handlers retrying while the database is away) heartbeats every second:
   * otherwise the group would drop this member after its 6 s session. False when the batch went stale.
   */
  private async takeSlot(batch: ConsumedBatch): Promise<boolean> {
    const waiting = this.slots.acquire();
    if (!waiting) return true;
    let acquired = false;
    void waiting.then(() => (acquired = true));
    while (!acquired) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([waiting, new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
      if (acquired) break;
      if (!batch.isActive() || this.closing) {
        // Give the slot back as soon as it comes: this batch will not use it.
        void waiting.then(() => this.slots.release());
        return false;
      }
      await batch.heartbeat().catch(() => undefined);
    }
    return true;
  }

  /** Runs `task` after every earlier task of the same key. */
  private chain(key: string, task: () => Promise<void>): void {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(task).catch(() => undefined);
    this.chains.set(key, next);
    this.running.add(next);
    void next.then(() => {
      this.running.delete(next);
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  private handlerOf(topic: string): MessageHandler | null {
    let handler = this.handlers.get(topic);
    if (handler === undefined) this.handlers.set(topic, (handler = this.getHandlerByPattern(topic)));
    return handler;
  }

  /**
   * A message that carries a request context (docs/architecture.md: "Request context": a request from the gateway, or an
   * event a request caused) is handled inside it, so every line logged meanwhile, and every event the
   * handler emits, carries the request id. One AsyncLocalStorage.run per such message, none otherwise.
   */
  private handle(topic: string, partition: number, message: KafkaMessage): Promise<void> {
    const context = contextFromHeaders(header(message, CONTEXT_HEADERS.requestId), header(message, CONTEXT_HEADERS.partnerId));
    // Inside a `process <topic>` span continuing the sender's trace (docs/operations/observability.md: "Tracing"; a no-op untraced).
    const work = () =>
      processSpan(topic, message.headers, message.key?.toString() ?? null, () => this.handleMessage(topic, partition, message));
    return context ? RequestContexts.run(context, work) : work();
  }

  private async handleMessage(topic: string, partition: number, message: KafkaMessage): Promise<void> {
    const handler = this.handlerOf(topic);
    if (!handler) {
      this.logger.error(`No handler for ${topic}; message at offset ${message.offset} skipped`);
      return;
    }
    const started = performance.now();
    const context = new KafkaMessageContext([message, partition, topic]);
    const data = parse(message.value);
    if (handler.isEventHandler) {
      await this.runEvent(topic, partition, message, handler, data, context);
    } else {
      // Its caller has answered 503 and stopped waiting: nobody would read the outcome (ADR 0016).
      if (deadlinePassed(header(message, DEADLINE_HEADER))) {
        this.logger.warn(`Request on ${topic} at offset ${message.offset} dropped: its deadline passed before it started`);
        return;
      }
      const replyTopic = header(message, REPLY_HEADERS.topic);
      const correlationId = header(message, REPLY_HEADERS.correlationId);
      const envelope = await this.answer(topic, data, context);
      if (correlationId) await this.replies?.send(envelope, correlationId, header(message, REPLY_HEADERS.url), replyTopic);
    }
    // The service's own trace of each message (debug: the gateway's access log already counts requests).
    this.logger.debug(`Handled ${topic} in ${(performance.now() - started).toFixed(1)} ms`);
  }

  /** Whether this service answers `topic` as a request (its handler is a `@HandleRequest`). */
  answers(topic: string): boolean {
    const handler = this.handlerOf(topic);
    return !!handler && !handler.isEventHandler;
  }

  /**
   * Runs a request's handler (which validates the payload first) and wraps the outcome as the caller
   * receives it. Kafka requests come here, and so do direct queries (internal-http's serveDirectQueries),
   * whose context carries no Kafka message.
   */
  async answer(topic: string, data: unknown, context = new KafkaMessageContext([DIRECT_MESSAGE, -1, topic])): Promise<ReplyEnvelope> {
    const handler = this.handlerOf(topic);
    if (!handler || handler.isEventHandler) return { err: `no request handler for ${topic}` };
    try {
      return { response: await this.run(handler, data, context) };
    } catch (error) {
      this.logger.error(`Handler of ${topic} failed: ${describe(error)}`);
      return { err: describe(error) };
    }
  }

  /**
   * An event handler that throws is retried until it succeeds: its key waits meanwhile and the commit
   * stays behind it, exactly as a redelivery would, without re-reading the partition. On shutdown the
   * retry stops and, uncommitted, the event comes back to the next consumer.
   */
  private async runEvent(
    topic: string,
    partition: number,
    message: KafkaMessage,
    handler: MessageHandler,
    data: unknown,
    context: KafkaMessageContext,
  ): Promise<void> {
    let unprocessable: UnprocessableEventError | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        // An event that fails its contract is parked, and only once it is parked may its offset be committed.
        if (unprocessable) await this.park(topic, partition, message, unprocessable);
        else await this.run(handler, data, context);
        return;
      } catch (error) {
        if (error instanceof UnprocessableEventError) {
          unprocessable = error;
          attempt--;
          continue;
        }
        if (this.closing) throw error;
        this.logger.warn(`Handler of ${topic} failed (attempt ${attempt}), retrying: ${describe(error)}`);
        await sleep(backoffMs(attempt));
      }
    }
  }

  private async park(topic: string, partition: number, message: KafkaMessage, error: UnprocessableEventError): Promise<void> {
    if (!this.options.deadLetters) {
      this.logger.error(`Skipped an unprocessable event of ${topic} at offset ${message.offset} (no dead-letter store): ${error.message}`);
      return;
    }
    await this.options.deadLetters.park(topic, partition, message, error.message);
  }

  /**
   * Runs a parked event through its handler once more, as a delivery would (inside the request context
   * its headers carry); throws when it fails again (ADR 0015: `npm run cli -- dead-letters replay`).
   */
  async replay(letter: DeadLetter): Promise<void> {
    const handler = this.handlerOf(letter.topic);
    if (!handler?.isEventHandler) throw new Error(`no event handler for ${letter.topic} in this service`);
    const message = messageOf(letter);
    const work = () => this.run(handler, parse(message.value), new KafkaMessageContext([message, letter.partition, letter.topic]));
    const context = contextFromHeaders(header(message, CONTEXT_HEADERS.requestId), header(message, CONTEXT_HEADERS.partnerId));
    await (context ? RequestContexts.run(context, work) : work());
  }

  private async run(handler: MessageHandler, data: unknown, context: KafkaMessageContext): Promise<unknown> {
    return lastValueFrom(this.transformToObservable(await handler(data, context)), { defaultValue: undefined });
  }

  private async commit(): Promise<void> {
    await Promise.all(
      this.lanes.map(async ({ live }) => {
        // Between a crash and the new consumer there is nothing to commit through.
        if (!live) return;
        const { consumer, progress } = live;
        const offsets: Array<{ topic: string; partition: number; offset: string }> = [];
        const trackers: Array<[PartitionProgress, number]> = [];
        for (const [key, tracker] of progress) {
          const offset = tracker.takeCommit();
          if (offset === undefined) continue;
          const cut = key.lastIndexOf(':');
          offsets.push({ topic: key.slice(0, cut), partition: Number(key.slice(cut + 1)), offset: String(offset) });
          trackers.push([tracker, offset]);
        }
        if (offsets.length === 0) return;
        try {
          await consumer.commit(offsets);
          for (const [tracker, offset] of trackers) tracker.markCommitted(offset);
        } catch (error) {
          // A rebalance is under way; the next tick commits what this member still owns.
          this.logger.debug(`Offset commit deferred: ${describe(error)}`);
        }
      }),
    );
  }

  /** Stops fetching, lets the handlers in flight finish (bounded), commits what finished, disconnects. */
  async close(): Promise<void> {
    this.closing = true;
    await this.replays?.stop();
    await Promise.all(this.lanes.map((lane) => lane.consumer.stop()));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, 8_000)));
    await Promise.race([Promise.allSettled([...this.running]), deadline]);
    clearTimeout(timer);
    await this.commits?.stop();
    await this.commit();
    await Promise.all(this.lanes.map((lane) => lane.consumer.disconnect()));
    await this.replies?.close();
    await this.producer?.disconnect().catch(() => undefined);
  }

  on(): never {
    throw new Error('KafkaServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.kafka as T;
  }
}

function parse(value: Buffer | null): unknown {
  if (!value) return undefined;
  try {
    return JSON.parse(value.toString());
  } catch {
    // Not JSON: the handler's contract validation refuses it with a clear message.
    return value.toString();
  }
}

function header(message: KafkaMessage, name: string): string | undefined {
  const value = message.headers?.[name];
  return value === undefined ? undefined : value.toString();
}

/** A way to send a reply other than its reply topic (internal-http's DirectReplySender implements it over HTTP). */
export interface DirectReplies {
  /** Rejects when the reply was not taken (the address is not allowed, the caller is gone): it then goes on Kafka. */
  send(replyUrl: string, correlationId: string, envelopeJson: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Sends a request's reply to the caller's direct-reply listener when the request names one and `direct`
 * is given, and on its reply topic otherwise or when the listener did not take it. A reply lost both ways
 * makes the caller time out (503) and the partner retry with the same idempotency key.
 */
export class ReplySender {
  constructor(
    private readonly kafka: Pick<SendCoalescer, 'send'>,
    private readonly direct: DirectReplies | undefined,
    private readonly logger: Pick<Logger, 'debug' | 'warn'>,
  ) {}

  async send(envelope: ReplyEnvelope, correlationId: string, replyUrl: string | undefined, replyTopic: string | undefined): Promise<void> {
    const value = JSON.stringify(envelope);
    if (replyUrl && this.direct) {
      try {
        await this.direct.send(replyUrl, correlationId, value);
        return;
      } catch (error) {
        this.logger.debug(`Direct reply to ${replyUrl} not taken, replying on Kafka: ${describe(error)}`);
      }
    }
    if (!replyTopic) return;
    await this.kafka
      .send(replyTopic, { value, headers: { [REPLY_HEADERS.correlationId]: correlationId, ...traceHeaders() } })
      .catch((error: unknown) => this.logger.warn(`Reply on ${replyTopic} lost (the caller times out and retries): ${describe(error)}`));
  }

  async close(): Promise<void> {
    await this.direct?.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
