import { DynamicModule, Type } from '@nestjs/common';
import { ServiceConfig } from '@partner/config';
import { SERVICE_CATALOGUE, ServiceName } from '@partner/contracts';
import { HasPool, KafkaModule, kafkaConnection, outboxModule } from '@partner/kafka';
import { loggingModule } from './logging.module';
import { serviceHealthModule } from './service-health.module';

export interface ServiceModuleOptions<C extends ServiceConfig> {
  /** The service, as the catalogue names it (libs/contracts, services.catalogue.ts). */
  name: ServiceName;
  /** Its configuration class, the token its modules inject, and the values loaded at start-up. */
  configClass: Type<C>;
  config: C;
  /** Its PrismaService, and the PostgreSQL schema of its tables (where its outbox is too). */
  database: { prisma: Type<HasPool>; schema: string };
  /** The modules that are the service's own (its use cases, handlers, simulators). */
  features: Array<Type | DynamicModule>;
}

/**
 * The root module of a Kafka-driven service, composed as every service is: its config and its Prisma
 * service (provided to every module), logging, then, for a service with an outbox (the catalogue says
 * which), the idempotent producer and the outbox (its writer and relay), then health (/healthz, /readyz,
 * /metrics and the ping), then the service's own modules. `module` is the app's AppModule class.
 */
export function serviceModule<C extends ServiceConfig>(module: Type, options: ServiceModuleOptions<C>): DynamicModule {
  const { name, configClass, config, database, features } = options;
  const outbox = SERVICE_CATALOGUE[name].outbox
    ? [
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({ connection: kafkaConnection(config, `${name}-producer-${process.pid}`), idempotentProducer: true }),
        }),
        outboxModule(database.prisma, configClass, database.schema),
      ]
    : [];
  return {
    module,
    global: true,
    providers: [{ provide: configClass, useValue: config }, database.prisma],
    exports: [configClass, database.prisma],
    imports: [loggingModule(name, config.LOG_LEVEL), ...outbox, serviceHealthModule(name, database.prisma), ...features],
  };
}
