import { DynamicModule, Module, Type } from '@nestjs/common';
import { ServiceConfig } from '@partner/config';
import { pgSchemaOf, SERVICE_CATALOGUE, ServiceName } from '@partner/contracts';
import { databaseProvider } from '@partner/db';
import { KafkaModule, kafkaConnection, outboxModule } from '@partner/kafka';
import { loggingModule } from './logging.module';
import { serviceHealthModule } from './service-health.module';

export interface ServiceModuleOptions<C extends ServiceConfig> {
  /** The service, as the catalogue names it (libs/contracts, services.catalogue.ts). */
  name: ServiceName;
  /** Its configuration class, the token its modules inject, and the values loaded at start-up. */
  configClass: Type<C>;
  config: C;
  /** The modules that are the service's own (its use cases, handlers, simulators); a function of the config when some depend on it. */
  features: Array<Type | DynamicModule> | ((config: C) => Array<Type | DynamicModule>);
}

/**
 * The root module of a Kafka-driven service, composed as every service is: its config and its `Database`
 * (provided to every module; its tables, the outbox's included, are in the catalogue's schema of its name,
 * pgSchemaOf), logging, then, for a service with an outbox (the catalogue says
 * which), the idempotent producer and the outbox (its writer and relay), then health (/healthz, /readyz,
 * /metrics and the ping), then the service's own modules. `module` is the app's AppModule class.
 */
export function serviceModule<C extends ServiceConfig>(module: Type, options: ServiceModuleOptions<C>): DynamicModule {
  const { name, configClass, config } = options;
  const features = typeof options.features === 'function' ? options.features(config) : options.features;
  const schema = pgSchemaOf(name);
  const database = databaseProvider(configClass, schema);
  const outbox = SERVICE_CATALOGUE[name].outbox
    ? [
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({ connection: kafkaConnection(config, `${name}-producer-${process.pid}`), idempotentProducer: true }),
        }),
        outboxModule(configClass, schema),
      ]
    : [];
  return {
    module,
    global: true,
    providers: [{ provide: configClass, useValue: config }, database],
    exports: [configClass, database.provide],
    imports: [loggingModule(name, config.LOG_LEVEL), ...outbox, serviceHealthModule(name), ...features],
  };
}

/** A service's `AppModule`: `register(config)` composes it with `serviceModule`, the rest of the options fixed. */
export function serviceAppModule<C extends ServiceConfig>(
  options: Omit<ServiceModuleOptions<C>, 'config'>,
): { register(config: C): DynamicModule } {
  @Module({})
  class AppModule {}
  return { register: (config) => serviceModule(AppModule, { ...options, config }) };
}
