import { DynamicModule, Module } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { RequestTopic } from '@partner/contracts';
import { kafkaClientConfig, KafkaConnection } from './kafka.options';
import { KAFKA_BUS_OPTIONS, KAFKA_CLIENT } from './kafka.tokens';
import { MessageBus, MessageBusOptions } from './message-bus';

export interface KafkaModuleOptions {
  connection: KafkaConnection;
  /** Consumer group of this process's reply consumer (Nest appends '-client'). */
  groupId: string;
  requests?: RequestTopic[];
  requestTimeoutMs?: number;
  /**
   * An idempotent producer with one request in flight (the default) keeps the outbox relay's events
   * unduplicated and in order. A process that only sends commands (the gateway) turns it off so its
   * requests pipeline; commands are made safe to repeat by their idempotency keys instead.
   */
  idempotentProducer?: boolean;
}

/** Provides the MessageBus. A process that only publishes (no `requests`) runs no consumer at all. */
@Module({})
export class KafkaModule {
  static forRootAsync<Deps extends unknown[]>(opts: {
    inject: { [K in keyof Deps]: unknown };
    useFactory: (...deps: Deps) => KafkaModuleOptions;
  }): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      providers: [
        { provide: 'KAFKA_MODULE_OPTIONS', inject: opts.inject as never[], useFactory: opts.useFactory },
        {
          provide: KAFKA_CLIENT,
          inject: ['KAFKA_MODULE_OPTIONS'],
          useFactory: (o: KafkaModuleOptions) =>
            new ClientKafka({
              client: kafkaClientConfig(o.connection),
              consumer: { groupId: o.groupId, sessionTimeout: 15_000, heartbeatInterval: 3_000, allowAutoTopicCreation: false },
              producer:
                o.idempotentProducer === false
                  ? { allowAutoTopicCreation: false }
                  : { idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false },
              subscribe: { fromBeginning: false },
              producerOnlyMode: !o.requests || o.requests.length === 0,
            }),
        },
        {
          provide: KAFKA_BUS_OPTIONS,
          inject: ['KAFKA_MODULE_OPTIONS'],
          useFactory: (o: KafkaModuleOptions): MessageBusOptions => ({
            requests: o.requests ?? [],
            requestTimeoutMs: o.requestTimeoutMs ?? 10_000,
          }),
        },
        MessageBus,
      ],
      exports: [MessageBus],
    };
  }
}
