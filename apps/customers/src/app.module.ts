import { DynamicModule, Module } from '@nestjs/common';
import { KafkaModule, kafkaConnection } from '@partner/kafka';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { BusinessCustomersModule } from './business-customers/business-customers.module';
import { CustomersConfig } from './config/customers.config';
import { NotificationsModule } from './notifications/notifications.module';
import { OutboxModule } from './prisma/outbox.module';
import { PrismaModule } from './prisma/prisma.module';
import { PrismaService } from './prisma/prisma.service';

@Module({})
export class AppModule {
  static register(config: CustomersConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [{ provide: CustomersConfig, useValue: config }],
      exports: [CustomersConfig],
      imports: [
        loggingModule('customers', config.LOG_LEVEL),
        // The producer the outbox relay publishes business_customer events with.
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({
            connection: kafkaConnection(config, `customers-producer-${process.pid}`),
            idempotentProducer: true,
          }),
        }),
        PrismaModule,
        OutboxModule,
        serviceHealthModule('customers', PrismaService),
        NotificationsModule,
        BusinessCustomersModule,
      ],
    };
  }
}
