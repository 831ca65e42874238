import { Controller, DynamicModule, Get, Inject, Module } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { ok, PingQuery, RequestReply, ServiceName, ServicePings } from '@partner/contracts';
import { HandleRequest, HasPool } from '@partner/kafka';
import { metricsModule } from './metrics.module';

export const DATABASE = Symbol('DATABASE');

/**
 * /healthz (the process is up), /readyz (its database answers), /metrics (metricsModule) and the Kafka
 * ping the gateway's /readyz sends, for one service. `database` is the service's Prisma service (for the pool under it).
 */
export function serviceHealthModule(name: ServiceName, database: abstract new (...args: never[]) => HasPool): DynamicModule {
  const pingTopic = ServicePings[name] as 'withdrawals.query.ping.v1';

  @Controller()
  class ServiceHealthController {
    constructor(
      @Inject(DATABASE) private readonly db: HasPool,
      private readonly health: HealthCheckService,
      private readonly indicator: HealthIndicatorService,
    ) {}

    @Get('healthz')
    healthz() {
      return { status: 'ok', service: name };
    }

    @Get('readyz')
    @HealthCheck()
    readyz() {
      return this.health.check([() => this.databaseIndicator()]);
    }

    @HandleRequest(pingTopic)
    async ping(_query: PingQuery): Promise<RequestReply<typeof pingTopic>> {
      await this.db.pool.query('SELECT 1');
      return ok({ service: name, database: true });
    }

    private async databaseIndicator() {
      const check = this.indicator.check('database');
      try {
        await this.db.pool.query('SELECT 1');
        return check.up();
      } catch (error) {
        return check.down({ message: (error as Error).message });
      }
    }
  }

  @Module({
    imports: [TerminusModule, metricsModule(name)],
    controllers: [ServiceHealthController],
    providers: [{ provide: DATABASE, useExisting: database }],
  })
  class ServiceHealthModule {}

  return { module: ServiceHealthModule };
}
