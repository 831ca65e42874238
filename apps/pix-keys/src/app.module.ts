import { DynamicModule, Module } from '@nestjs/common';
import { KafkaModule, kafkaConnection } from '@partner/kafka';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { PixKeysConfig } from './config/pix-keys.config';
import { PixKeysModule } from './pix-keys/pix-keys.module';
import { OutboxModule } from './prisma/outbox.module';
import { PrismaModule } from './prisma/prisma.module';
import { PrismaService } from './prisma/prisma.service';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static register(config: PixKeysConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [{ provide: PixKeysConfig, useValue: config }],
      exports: [PixKeysConfig],
      imports: [
        loggingModule('pix-keys', config.LOG_LEVEL),
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({
            connection: kafkaConnection(config, `pix-keys-producer-${process.pid}`),
            idempotentProducer: true,
          }),
        }),
        PrismaModule,
        OutboxModule,
        serviceHealthModule('pix-keys', PrismaService),
        UsersModule,
        PixKeysModule,
      ],
    };
  }
}
