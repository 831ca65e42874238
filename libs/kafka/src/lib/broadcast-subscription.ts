import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Logger } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { EventPayload, EventTopic, eventContracts } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { ConsumerGroups } from './consumer-groups';
import { CONSUMER_TIMINGS, KafkaConnection, retried, runJoined } from './kafka-client';
import { kafkaClient } from './kafka-client.factory';
import { ConsumeSpec, KafkaClient } from './kafka-port';
import { leaveProcess, RecoveringConsumer } from './recovering-consumer';

export interface BroadcastSubscriptionOptions<T extends EventTopic> {
  connection: KafkaConnection;
  topic: T;
  /** The start of this process's own group id: `<group>.<host>-<pid>-<random>`. */
  group: string;
  /** Called with every valid message, one at a time; an invalid one is logged and skipped. */
  handle: (payload: EventPayload<T>) => void | Promise<void>;
  /** Where membership is reported (the process's readiness); a group of its own by default. */
  groups?: ConsumerGroups;
  /** How long the consumer may stay out of its group before the process leaves (ADR 0015); 0 or unset: never. */
  maxOutOfGroupMs?: number;
}

/**
 * Delivers every message of an event topic to EVERY process that subscribes (a broadcast), where a
 * service's consumer group shares them out among its instances: each process joins a consumer group of
 * its own. It starts at the topic's end and never commits offsets, so it suits notices about state the
 * database holds anyway (an instance that was down reads the truth from the database at start; it has no
 * use for old notices). A group that commits nothing is dropped by the broker once its member leaves, so
 * restarts leave nothing behind. The topic's end is read before the consumer starts and the consumer is
 * put there, so every message published after `start` resolves is received (a group's own "latest" is
 * resolved at its first fetch, which may come after such a message).
 */
export class BroadcastSubscription<T extends EventTopic> {
  private readonly logger = new Logger(BroadcastSubscription.name);
  private consumer?: RecoveringConsumer;
  readonly groupId: string;

  constructor(private readonly options: BroadcastSubscriptionOptions<T>) {
    const instance = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`.replace(/[^a-zA-Z0-9._-]/g, '_');
    this.groupId = `${options.group}.${instance}`.slice(0, 240);
  }

  async start(): Promise<void> {
    const { topic, handle } = this.options;
    const payloadClass: ClassConstructor<object> = eventContracts[topic].payload;
    const kafka = kafkaClient(this.options.connection);
    const ends = await endsOf(kafka, topic);
    // Where to start each partition: the topic's end now; after a message, the one after it, so that a
    // consumer re-created after a crash (ADR 0015) misses nothing published meanwhile.
    const next = new Map(ends.map(({ partition, high }) => [partition, high]));
    this.consumer = new RecoveringConsumer({
      groupId: this.groupId,
      groups: this.options.groups ?? new ConsumerGroups(),
      maxOutOfGroupMs: this.options.maxOutOfGroupMs ?? 0,
      onStuck: leaveProcess,
      create: () => kafka.consumer({ groupId: this.groupId, ...CONSUMER_TIMINGS }),
      run: (consumer) =>
        runJoined(consumer, {
          topics: [topic],
          fromBeginning: false,
          autoResolve: true,
          seek: [...next].map(([partition, offset]) => ({ topic, partition, offset })),
          eachBatch: this.eachBatch(payloadClass, handle, next),
        }),
    });
    await this.consumer.start();
  }

  private eachBatch(
    payloadClass: ClassConstructor<object>,
    handle: (payload: EventPayload<T>) => void | Promise<void>,
    next: Map<number, string>,
  ): ConsumeSpec['eachBatch'] {
    const { topic } = this.options;
    return async ({ partition, messages }) => {
      for (const message of messages) {
        next.set(partition, String(Number(message.offset) + 1));
        let payload: unknown;
        try {
          payload = JSON.parse(message.value?.toString() ?? '');
        } catch {
          payload = undefined;
        }
        // Unknown fields are ignored (a newer producer may add one); an invalid notice is only logged: it
        // tells of state the database holds, which the next start reads anyway (nothing to park).
        const checked = validateContract(payloadClass, payload, { unknownFields: 'ignore' });
        if (!checked.ok) {
          this.logger.error(`Skipped invalid message on ${topic}: ${checked.error.message}`);
          continue;
        }
        try {
          await handle(checked.value as EventPayload<T>);
        } catch (error) {
          // Nothing to retry into: the next notice, or the database at the next start, is the remedy.
          this.logger.error(`Handler of ${topic} failed: ${(error as Error).message}`);
        }
      }
    };
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
  }
}

/** The offset the next message of each partition of `topic` will get. */
async function endsOf(kafka: KafkaClient, topic: string): Promise<Array<{ partition: number; high: string }>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await retried(`reading the offsets of ${topic}`, () => admin.topicEnds(topic));
  } finally {
    await admin.disconnect();
  }
}
