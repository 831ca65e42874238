import { DynamicModule, Global, Module } from '@nestjs/common';
import { databaseProvider } from '@partner/db';
import { DirectQueryClient, DirectReplyListener } from '@partner/internal-http';
import { KafkaModule, kafkaConnection, MessageBus } from '@partner/kafka';
import { loggingModule, metricsModule } from '@partner/platform';
import { ApiKeyRevocationsListener } from './api-keys/api-key-revocations.listener';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { directReplyHostOf, GatewayConfig } from './config/gateway.config';
import { CustomersModule } from './customers/customers.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { OperatorsModule } from './operators/operators.module';
import { PartnersModule } from './partners/partners.module';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { PixKeysModule } from './pix-keys/pix-keys.module';
import { PixProviderModule } from './pix-provider/pix-provider.module';
import { DB_SCHEMA } from './database/db-schema';
import { OutboxModule, unpublishedOutboxModule } from './database/outbox.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { UsersModule } from './users/users.module';
import { HotWalletsModule } from './hot-wallets/hot-wallets.module';
import { ScreeningModule } from './screening/screening.module';
import { LimitsModule } from './limits/limits.module';
import { AccountsModule } from './accounts/accounts.module';
import { MedCasesModule } from './med-cases/med-cases.module';
import { ReportsModule } from './reports/reports.module';
import { WithdrawalPolicyModule } from './withdrawal-policy/withdrawal-policy.module';
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

/** The gateway's database: its own schema, on its config's DATABASE_URL. */
const database = databaseProvider(GatewayConfig, DB_SCHEMA);

@Global()
@Module({})
export class AppModule {
  /**
   * `overrideBus` replaces the Kafka request-reply (the bench's in-process baseline, tools/bench-baseline);
   * everything else (auth, rate limit, validation, error mapping, logging, metrics) stays as it runs.
   */
  static register(config: GatewayConfig, { overrideBus }: { overrideBus?: GatewayBus } = {}): DynamicModule {
    return {
      module: AppModule,
      // Other instances' key revocations arrive over Kafka; without it (overrideBus) this is the only instance.
      providers: [{ provide: GatewayConfig, useValue: config }, database, ...(overrideBus ? [] : [ApiKeyRevocationsListener])],
      exports: [GatewayConfig, database.provide],
      imports: [
        loggingModule('gateway', config.LOG_LEVEL),
        metricsModule('gateway'),
        overrideBus
          ? OverrideBusModule.register(overrideBus)
          : KafkaModule.forRootAsync({
              inject: [],
              useFactory: () => ({
                connection: kafkaConnection(config, `gateway-${process.pid}`),
                // Requests over Kafka; the listings and the replies take the internal HTTP hops where configured
                // (docs/architecture.md: "Direct queries", "Direct replies"); the queries signed with INTERNAL_SECRET.
                requests: {
                  timeoutMs: config.REQUEST_TIMEOUT_MS,
                  directQueries: new DirectQueryClient(
                    { events: config.EVENTS_QUERY_URL || undefined, inflows: config.INFLOWS_QUERY_URL || undefined },
                    config.REQUEST_TIMEOUT_MS,
                    config.INTERNAL_SECRET,
                  ),
                  replyListener: config.DIRECT_REPLIES
                    ? new DirectReplyListener(config.HOST, config.DIRECT_REPLY_PORT, directReplyHostOf(config))
                    : undefined,
                },
                idempotentProducer: false,
                maxOutOfGroupMs: config.KAFKA_MAX_OUT_OF_GROUP_MS,
              }),
            }),
        overrideBus ? unpublishedOutboxModule() : OutboxModule,
        AuthModule,
        OperatorsModule,
        RateLimitModule,
        HealthModule,
        WithdrawalsModule,
        EventsModule,
        PixKeysModule,
        CustomersModule,
        PixInflowsModule.register({ sandbox: config.SANDBOX }),
        PixProviderModule,
        PartnersModule,
        ApiKeysModule,
        UsersModule,
        HotWalletsModule,
        ScreeningModule,
        LimitsModule,
        AccountsModule,
        MedCasesModule,
        ReportsModule,
        WithdrawalPolicyModule,
        AuditModule,
        ...(config.SANDBOX ? [SandboxModule] : []),
      ],
    };
  }
}
