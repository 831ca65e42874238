import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { OutboxRelay } from '@partner/kafka';
import { PeriodicJob, PeriodicJobMetrics } from '@partner/runtime';
import { Registry } from 'prom-client';
import { METRICS_REGISTRY, metricsModule } from './metrics.module';

// Unit: what a scrape shows. The relay's backlog query itself is covered against PostgreSQL in
// libs/kafka/src/lib/outbox.int.spec.ts; here a relay stand-in answers a fixed backlog.
async function scrape(relay?: Pick<OutboxRelay, 'backlog'>): Promise<string> {
  @Global()
  @Module({ providers: relay ? [{ provide: OutboxRelay, useValue: relay }] : [], exports: relay ? [OutboxRelay] : [] })
  class RelayModule {}
  const moduleRef = await Test.createTestingModule({ imports: [RelayModule, metricsModule('svc')] }).compile();
  try {
    return await moduleRef.get<Registry>(METRICS_REGISTRY).metrics();
  } finally {
    await moduleRef.close();
  }
}

describe('metricsModule', () => {
  it('shows the outbox backlog the relay reports, labelled with the app, one query per scrape', async () => {
    let queries = 0;
    const text = await scrape({ backlog: async () => (queries++, { pending: 3, oldestAgeSeconds: 90.5 }) });

    expect(text).toContain('\noutbox_pending_messages{app="svc"} 3\n');
    expect(text).toContain('\noutbox_oldest_pending_age_seconds{app="svc"} 90.5\n');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{app="svc"\} /m);
    expect(queries).toBe(1);
  });

  it("shows the runs and failures of the app's periodic jobs, labelled with the app and the job", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [metricsModule('svc')] }).compile();
    try {
      const job = new PeriodicJob({
        name: 'pruner',
        intervalMs: 60_000,
        firstRunAfterMs: 0,
        run: () => Promise.reject(new Error('away')),
        metrics: moduleRef.get(PeriodicJobMetrics),
      });
      job.start();
      const registry = moduleRef.get<Registry>(METRICS_REGISTRY);
      const deadline = Date.now() + 2_000;
      while (!(await registry.metrics()).includes('periodic_job_runs_total{job="pruner"') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
      await job.stop();
      const text = await registry.metrics();
      expect(text).toContain('\nperiodic_job_runs_total{job="pruner",app="svc"} 1\n');
      expect(text).toContain('\nperiodic_job_failures_total{job="pruner",app="svc"} 1\n');
      expect(text).toContain('\nperiodic_job_duration_seconds_count{app="svc",job="pruner"} 1\n');
    } finally {
      await moduleRef.close();
    }
  });

  it('shows no outbox gauges in an app without an outbox', async () => {
    const text = await scrape();
    expect(text).not.toContain('outbox_');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{app="svc"\} /m);
  });
});
