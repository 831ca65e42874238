import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { metric, metricSet } from './metric-set';
import { METRICS_REGISTRY } from './metrics.module';

@Injectable()
class SampleMetrics extends metricSet({
  calls: metric.counter('sample_calls_total', ['outcome'], 'Calls by outcome'),
  queued: metric.gauge('sample_queued', [], 'Items queued'),
  duration: metric.histogram('sample_duration_seconds', [], 'How long a call took', [0.1, 1]),
}) {}

describe('metricSet', () => {
  it("provided by Nest, registers each metric of its table in the app's registry, under the table's key", async () => {
    const registry = new Registry();
    const moduleRef = await Test.createTestingModule({
      providers: [SampleMetrics, { provide: METRICS_REGISTRY, useValue: registry }],
    }).compile();
    const metrics = moduleRef.get(SampleMetrics);
    metrics.calls.inc({ outcome: 'done' }, 2);
    metrics.queued.set(3);
    metrics.duration.observe(0.5);

    const text = await registry.metrics();
    expect(text).toContain('\nsample_calls_total{outcome="done"} 2\n');
    expect(text).toContain('# HELP sample_calls_total Calls by outcome\n');
    expect(text).toContain('\nsample_queued 3\n');
    expect(text).toContain('\nsample_duration_seconds_bucket{le="1"} 1\n');
    await moduleRef.close();
  });

  it('made by hand (no registry), counts without registering anywhere; each instance its own metrics', async () => {
    const [a, b] = [new SampleMetrics(), new SampleMetrics()];
    a.calls.inc({ outcome: 'done' });
    expect((await a.calls.get()).values).toEqual([{ labels: { outcome: 'done' }, value: 1 }]);
    expect((await b.calls.get()).values).toEqual([]);
  });
});
