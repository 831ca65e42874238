import { DynamicModule, Module } from '@nestjs/common';
import { KAFKA_BUS_OPTIONS } from './kafka.tokens';
import { MessageBus, MessageBusOptions } from './message-bus';

/** Provides the MessageBus. A process that sends no requests runs no consumer at all. */
@Module({})
export class KafkaModule {
  static forRootAsync<Deps extends unknown[]>(opts: {
    inject: { [K in keyof Deps]: unknown };
    useFactory: (...deps: Deps) => MessageBusOptions;
  }): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      providers: [{ provide: KAFKA_BUS_OPTIONS, inject: opts.inject as never[], useFactory: opts.useFactory }, MessageBus],
      exports: [MessageBus],
    };
  }
}
