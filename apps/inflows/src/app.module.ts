import { DynamicModule, Module } from '@nestjs/common';
import { KafkaModule, kafkaConnection } from '@partner/kafka';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { InflowsConfig } from './config/inflows.config';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { PixKeyReplicaModule } from './pix-key-replica/pix-key-replica.module';
import { OutboxModule } from './prisma/outbox.module';
import { PrismaModule } from './prisma/prisma.module';
import { PrismaService } from './prisma/prisma.service';
import { SpiSimulatorModule } from './spi-simulator/spi-simulator.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static register(config: InflowsConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [{ provide: InflowsConfig, useValue: config }],
      exports: [InflowsConfig],
      imports: [
        loggingModule('inflows', config.LOG_LEVEL),
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({
            connection: kafkaConnection(config, `inflows-producer-${process.pid}`),
            idempotentProducer: true,
          }),
        }),
        PrismaModule,
        OutboxModule,
        serviceHealthModule('inflows', PrismaService),
        UsersModule,
        PixKeyReplicaModule,
        SpiSimulatorModule,
        PixInflowsModule,
      ],
    };
  }
}
