import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { OutboxRelay } from '@partner/kafka';
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
  it("shows the outbox backlog the relay reports, labelled with the app, one query per scrape", async () => {
    let queries = 0;
    const text = await scrape({ backlog: async () => (queries++, { pending: 3, oldestAgeSeconds: 90.5 }) });

    expect(text).toContain('\noutbox_pending_messages{app="svc"} 3\n');
    expect(text).toContain('\noutbox_oldest_pending_age_seconds{app="svc"} 90.5\n');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{app="svc"\} /m);
    expect(queries).toBe(1);
  });

  it('shows no outbox gauges in an app without an outbox', async () => {
    const text = await scrape();
    expect(text).not.toContain('outbox_');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{app="svc"\} /m);
  });
});
