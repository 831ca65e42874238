import { DynamicModule, Module } from '@nestjs/common';
import { KafkaModule, kafkaConnection } from '@partner/kafka';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { AccountsModule } from './accounts/accounts.module';
import { WithdrawalsConfig } from './config/withdrawals.config';
import { OutboxModule } from './prisma/outbox.module';
import { PrismaModule } from './prisma/prisma.module';
import { PrismaService } from './prisma/prisma.service';
import { WithdrawalsModule } from './withdrawals/withdrawals.module';

@Module({})
export class AppModule {
  static register(config: WithdrawalsConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [{ provide: WithdrawalsConfig, useValue: config }],
      exports: [WithdrawalsConfig],
      imports: [
        loggingModule('withdrawals', config.LOG_LEVEL),
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({
            connection: kafkaConnection(config, `withdrawals-producer-${process.pid}`),
            idempotentProducer: true,
          }),
        }),
        PrismaModule,
        OutboxModule,
        serviceHealthModule('withdrawals', PrismaService),
        AccountsModule,
        WithdrawalsModule,
      ],
    };
  }
}

