import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge, Histogram, Metric, Registry } from 'prom-client';
import { METRICS_REGISTRY } from './metrics.module';

interface MetricDefinition<M extends Metric> {
  create(): M;
}

/** One line of a metric set's table: the metric's name, its labels, its help (shown by /metrics). */
export const metric = {
  counter: (name: string, labelNames: string[], help: string): MetricDefinition<Counter> => ({
    create: () => new Counter({ name, help, labelNames, registers: [] }),
  }),
  gauge: (name: string, labelNames: string[], help: string): MetricDefinition<Gauge> => ({
    create: () => new Gauge({ name, help, labelNames, registers: [] }),
  }),
  histogram: (name: string, labelNames: string[], help: string, buckets: number[]): MetricDefinition<Histogram> => ({
    create: () => new Histogram({ name, help, labelNames, buckets, registers: [] }),
  }),
};

export type MetricsOf<T extends Record<string, MetricDefinition<Metric>>> = {
  readonly [K in keyof T]: T[K] extends MetricDefinition<infer M> ? M : never;
};

/**
 * The base class of a feature's metrics, built from one table: each key becomes a property holding its
 * metric, registered in the app's registry (`/metrics`) when Nest provides one; made by hand (a unit spec),
 * the metrics count but nothing scrapes them. Usage: `class DictMetrics extends metricSet({ ... }) {}`.
 */
export function metricSet<T extends Record<string, MetricDefinition<Metric>>>(table: T): new (registry?: Registry) => MetricsOf<T> {
  @Injectable()
  class MetricSet {
    constructor(@Optional() @Inject(METRICS_REGISTRY) registry?: Registry) {
      for (const [key, definition] of Object.entries(table)) {
        const made = definition.create();
        Object.defineProperty(this, key, { value: made, enumerable: true });
        registry?.registerMetric(made);
      }
    }
  }
  return MetricSet as unknown as new (registry?: Registry) => MetricsOf<T>;
}
