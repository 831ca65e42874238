import { DynamicModule, Global, Module } from '@nestjs/common';
import { KafkaModule, MessageBus } from '@partner/kafka';
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

/** What the gateway's use cases need of the bus: `request` only (they send commands and queries). */
export type GatewayBus = Pick<MessageBus, 'request'>;

/** Provides a given bus under the MessageBus token, in place of KafkaModule (so no Kafka client at all). */
@Module({})
class OverrideBusModule {
  static register(bus: GatewayBus): DynamicModule {
    return { module: OverrideBusModule, global: true, providers: [{ provide: MessageBus, useValue: bus }], exports: [MessageBus] };
  }
}

@Global()
@Module({})
export class AppModule {
  /**
   * `overrideBus` replaces the Kafka request-reply (the bench's in-process baseline, apps/bench-baseline);
   * everything else (auth, rate limit, validation, error mapping, logging, metrics) stays as it runs.
   */
  static register(config: GatewayConfig, { overrideBus }: { overrideBus?: GatewayBus } = {}): DynamicModule {
    return {
      module: AppModule,
      providers: [{ provide: GatewayConfig, useValue: config }, PrismaService],
      exports: [GatewayConfig, PrismaService],
      imports: [
        loggingModule('gateway', config.LOG_LEVEL),
        metricsModule('gateway'),
        overrideBus
          ? OverrideBusModule.register(overrideBus)
          : KafkaModule.forRootAsync({
              inject: [],
              useFactory: () => ({
                connection: { brokers: config.KAFKA_BROKERS, clientId: `gateway-${process.pid}` },
                requests: {
                  timeoutMs: config.REQUEST_TIMEOUT_MS,
                  directQueryUrls: { events: config.EVENTS_QUERY_URL || undefined, inflows: config.INFLOWS_QUERY_URL || undefined },
                },
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
