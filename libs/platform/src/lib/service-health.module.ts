import { Controller, DynamicModule, Get, Module } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { ok, PingQuery, RequestReply, ServiceName, ServicePings } from '@partner/contracts';
import { Database } from '@partner/db';
import { ConsumerGroups, HandleRequest } from '@partner/kafka';
import { metricsModule } from './metrics.module';

/**
 * /healthz (the process is up), /readyz (its database answers and its Kafka consumers are in their groups),
 * /metrics (metricsModule) and the Kafka ping the gateway's /readyz sends, for one service, on its `Database`.
 * ConsumerGroups is what the service's KafkaServer reports into (bootstrapService passes it).
 */
export function serviceHealthModule(name: ServiceName): DynamicModule {
  const pingTopic = ServicePings[name] as 'withdrawals.query.ping.v1';

  @Controller()
  class ServiceHealthController {
    constructor(
      private readonly db: Database,
      private readonly groups: ConsumerGroups,
      private readonly health: HealthCheckService,
      private readonly indicator: HealthIndicatorService,
    ) {}

    @Get('healthz')
    healthz() {
      return { status: 'ok', service: name };
    }

    @Get('readyz')
    // Without swaggerDocumentation, terminus would require @nestjs/swagger (installed for the gateway) and
    // with it lodash and js-yaml in every service: about 5 MB of heap each, for a port no document describes.
    @HealthCheck({ noCache: true, swaggerDocumentation: false })
    readyz() {
      return this.health.check([() => this.databaseIndicator(), () => this.consumersIndicator()]);
    }

    /**
     * The gateway's /readyz asks this over Kafka. It fails while a consumer of the service is out of its
     * group, so a dead event consumer shows in the stack's readiness, not only on this port (ADR 0015).
     */
    @HandleRequest(pingTopic)
    async ping(_query: PingQuery): Promise<RequestReply<typeof pingTopic>> {
      if (!this.groups.ready()) throw new Error(`consumers not in their groups: ${JSON.stringify(this.groups.snapshot())}`);
      await this.db.query('SELECT 1');
      return ok({ service: name, database: true });
    }

    private consumersIndicator() {
      const check = this.indicator.check('kafka_consumers');
      const groups = this.groups.snapshot();
      const none = this.groups.noConsumers();
      if (none !== undefined) return check.up({ groups, none });
      return this.groups.ready() ? check.up({ groups }) : check.down({ groups });
    }

    private async databaseIndicator() {
      const check = this.indicator.check('database');
      try {
        await this.db.query('SELECT 1');
        return check.up();
      } catch (error) {
        return check.down({ message: (error as Error).message });
      }
    }
  }

  @Module({
    imports: [TerminusModule, metricsModule(name)],
    controllers: [ServiceHealthController],
    providers: [{ provide: ConsumerGroups, useValue: new ConsumerGroups() }],
    exports: [ConsumerGroups],
  })
  class ServiceHealthModule {}

  return { module: ServiceHealthModule };
}
