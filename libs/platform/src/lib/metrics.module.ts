import { Controller, DynamicModule, Get, Header, Inject, Module } from '@nestjs/common';
import { OutboxRelay } from '@partner/kafka';
import { PeriodicJobMetrics } from '@partner/runtime';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/**
 * GET /metrics in Prometheus' text format, for one app: Node's own metrics (CPU, memory, event-loop
 * lag, GC), every one labelled `app`, and, in a service with an outbox, its backlog — the first thing
 * to look at when events are late (a relay that cannot reach the broker shows as a growing age), and
 * the runs and failures of its periodic jobs (simulators, relay, pruning, offset commits).
 * Served next to /healthz, so on the gateway's public port too: keep /metrics to the internal network
 * at the load balancer, like the probes.
 */
export function metricsModule(app: string): DynamicModule {
  // Not in the gateway's OpenAPI documents: the gateway leaves /metrics out where it builds them (openapi.ts),
  // so that no service loads @nestjs/swagger (about 5 MB of heap each) for one decorator.
  @Controller()
  class MetricsController {
    constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

    @Get('metrics')
    @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
    metrics(): Promise<string> {
      return this.registry.metrics();
    }
  }

  @Module({
    controllers: [MetricsController],
    providers: [
      PeriodicJobMetrics,
      {
        provide: METRICS_REGISTRY,
        inject: [PeriodicJobMetrics, { token: OutboxRelay, optional: true }],
        useFactory: (jobs: PeriodicJobMetrics, relay?: OutboxRelay) => {
          const registry = new Registry();
          registry.setDefaultLabels({ app });
          // Event-loop delay sampled every 20 ms, not prom-client's 10: the sampling timer woke every
          // process 100 times a second (4 ms of CPU a second each, idle); 50 samples a second still give the p99.
          collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
          jobs.registerIn(registry);
          if (relay) registerOutboxGauges(registry, relay);
          return registry;
        },
      },
    ],
    exports: [METRICS_REGISTRY, PeriodicJobMetrics],
  })
  class MetricsModule {}

  return { module: MetricsModule, global: true };
}

/** Read at scrape time (one indexed query); a database that does not answer leaves the gauges unset. */
function registerOutboxGauges(registry: Registry, relay: OutboxRelay): void {
  // A scrape collects both gauges at once (prom-client starts every collect in the same tick): one query serves the two.
  let inFlight: Promise<{ pending: number; oldestAgeSeconds: number }> | undefined;
  const backlog = () => (inFlight ??= relay.backlog().finally(() => (inFlight = undefined)));
  new Gauge({
    name: 'outbox_pending_messages',
    help: 'Outbox rows committed but not yet published to Kafka',
    registers: [registry],
    async collect() {
      this.set((await backlog().catch(() => ({ pending: NaN }))).pending);
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest unpublished outbox row (0 when none): how late the feed is',
    registers: [registry],
    async collect() {
      this.set((await backlog().catch(() => ({ oldestAgeSeconds: NaN }))).oldestAgeSeconds);
    },
  });
}
