import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { EventPayload, EventTopic, RequestPayload, RequestReply, RequestTopic } from '@partner/contracts';
import { KAFKA_BUS_OPTIONS, KAFKA_CLIENT } from './kafka.tokens';

export interface MessageBusOptions {
  /** Request-reply topics this process sends to; their reply topics are subscribed before connecting. */
  requests: RequestTopic[];
  /** How long a request waits for its reply before the caller is told the service is unavailable. */
  requestTimeoutMs: number;
}

/** Raised when a service does not answer in time or the broker cannot be reached. */
export class ServiceUnavailableError extends Error {
  constructor(readonly topic: string, cause?: unknown) {
    super(`No reply on ${topic}${cause instanceof Error ? `: ${cause.message}` : ''}`);
  }
}

/**
 * The only way apps talk to Kafka: typed by the contracts' topic maps, so a payload that does not
 * belong to a topic does not compile. Wraps Nest's ClientKafka (request-reply correlation, reply
 * partitions) and exposes its idempotent producer for batch publishing.
 */
@Injectable()
export class MessageBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MessageBus.name);

  constructor(
    @Inject(KAFKA_CLIENT) private readonly client: ClientKafka,
    @Inject(KAFKA_BUS_OPTIONS) private readonly options: MessageBusOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const topic of this.options.requests) this.client.subscribeToResponseOf(topic);
    await this.client.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  /** Sends a command or query and waits for its reply; `key` keeps one resource's requests in order. */
  async request<T extends RequestTopic>(topic: T, payload: RequestPayload<T>, key?: string): Promise<RequestReply<T>> {
    try {
      const reply$ = this.client.send<RequestReply<T>>(topic, { key: key ?? null, value: payload });
      return await firstValueFrom(reply$.pipe(timeout(this.options.requestTimeoutMs)));
    } catch (error) {
      if (error instanceof TimeoutError) throw new ServiceUnavailableError(topic);
      // Errors thrown inside a remote handler arrive as plain objects (e.g. its database went away and
      // the transaction rolled back); anything else is transport. Either way the caller cannot know
      // the outcome and should retry with the same idempotency key: 503, not a 500 of ours.
      if (!(error instanceof Error)) this.logger.error(`Remote handler failed on ${topic}: ${JSON.stringify(error)}`);
      throw new ServiceUnavailableError(topic, error);
    }
  }

  /** Publishes events, all or nothing per call, in the given order within each key. */
  async publishBatch(messages: Array<{ topic: EventTopic; key: string; payload: EventPayload<EventTopic>; headers?: Record<string, string> }>): Promise<void> {
    const byTopic = new Map<string, Array<{ key: string; value: string; headers?: Record<string, string> }>>();
    for (const m of messages) {
      const list = byTopic.get(m.topic) ?? [];
      list.push({ key: m.key, value: JSON.stringify(m.payload), headers: m.headers });
      byTopic.set(m.topic, list);
    }
    await this.client.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, msgs]) => ({ topic, messages: msgs })),
    });
  }

  /** Publishes one event; typed so that the payload must be the topic's. */
  async publish<T extends EventTopic>(topic: T, key: string, payload: EventPayload<T>): Promise<void> {
    await this.publishBatch([{ topic, key, payload }]);
  }
}
