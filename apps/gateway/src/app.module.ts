import { DynamicModule, Global, Module } from '@nestjs/common';
import { requestTopics } from '@partner/contracts';
import { KafkaModule } from '@partner/kafka';
import { loggingModule, metricsModule } from '@partner/platform';
import { AuthModule } from './auth/auth.module';
import { GatewayConfig } from './config/gateway.config';
import { CustomersModule } from './customers/customers.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { PixKeysModule } from './pix-keys/pix-keys.module';
import { PrismaService } from './prisma/prisma.service';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { WithdrawalsModule } from './withdrawals/withdrawals.module';

@Global()
@Module({})
export class AppModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      providers: [{ provide: GatewayConfig, useValue: config }, PrismaService],
      exports: [GatewayConfig, PrismaService],
      imports: [
        loggingModule('gateway', config.LOG_LEVEL),
        metricsModule('gateway'),
        KafkaModule.forRootAsync({
          inject: [],
          useFactory: () => ({
            connection: { brokers: config.KAFKA_BROKERS, clientId: `gateway-${process.pid}` },
            groupId: 'gateway',
            requests: requestTopics,
            requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
            idempotentProducer: false,
          }),
        }),
        AuthModule,
        RateLimitModule,
        HealthModule,
        WithdrawalsModule,
        EventsModule,
        PixKeysModule,
        CustomersModule,
        PixInflowsModule.register({ sandbox: config.SANDBOX }),
        ...(config.SANDBOX ? [SandboxModule] : []),
      ],
    };
  }
}
