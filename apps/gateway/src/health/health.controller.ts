import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ServiceName, ServicePings } from '@partner/contracts';
import { kafkaConnection, MessageBus, probeBroker } from '@partner/kafka';
import { Database } from '@partner/db';
import { GatewayConfig } from '../config/gateway.config';
import { LivenessReport } from './health.dto';

/**
 * /healthz: the process is up. /readyz: the broker, the gateway's database and every service answer (a
 * service answers its ping only while all of its consumers are in their groups), and the gateway's own
 * consumers (its replies, key revocations) are in theirs.
 */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly db: Database,
    private readonly bus: MessageBus,
    private readonly config: GatewayConfig,
  ) {}

  @Get('healthz')
  @ApiOperation({ operationId: 'healthz', summary: 'Liveness: the process is up (no key)' })
  @ApiOkResponse({ type: LivenessReport, description: 'Up' })
  healthz() {
    return { status: 'ok' };
  }

  /** Operators' only: on the admin port when there is one (ADMIN_PORT), so not in the partners' document. */
  @Get('readyz')
  @ApiExcludeEndpoint()
  @HealthCheck({ swaggerDocumentation: false })
  readyz() {
    const services = Object.keys(ServicePings) as ServiceName[];
    return this.health.check([
      () => this.probe('kafka', () => probeBroker(kafkaConnection(this.config, 'gateway-readyz'))),
      () => this.probe('database', () => this.db.query('SELECT 1')),
      () => this.consumers(),
      ...services.map((name) => () => this.probe(name, () => this.bus.request(ServicePings[name], { sent_at: new Date().toISOString() }))),
    ]);
  }

  /** A bus given in place of Kafka's (tests, the bench baseline) has no consumers: nothing to report. */
  private consumers() {
    const indicator = this.indicator.check('kafka_consumers');
    const groups = (this.bus as Partial<MessageBus>).groups;
    if (!groups) return indicator.up();
    return groups.ready() ? indicator.up({ groups: groups.snapshot() }) : indicator.down({ groups: groups.snapshot() });
  }

  private async probe(key: string, check: () => Promise<unknown>) {
    const indicator = this.indicator.check(key);
    try {
      await check();
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }
}
