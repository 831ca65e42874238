import { BeforeApplicationShutdown, FactoryProvider, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJob, PeriodicJobMetrics } from '@partner/runtime';
import { Database } from './database';
import { pruneRefusals } from './refused-commands';
import { Queryable } from './unit-of-work';

/** The first prune 10 s after start, then every 10 minutes (one indexed DELETE on `refused_at`). */
const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Keeps a service's `refused_commands` to its retention, on a timer (a periodic job, with its metrics). */
export class RefusalRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: PeriodicJob;

  constructor(db: Queryable, metrics?: PeriodicJobMetrics) {
    this.job = new PeriodicJob({
      name: 'refusal-retention',
      intervalMs: PRUNE_INTERVAL_MS,
      firstRunAfterMs: 10_000,
      run: () => pruneRefusals(db, new Date()),
      metrics,
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.job.stop();
  }
}

/** The retention job of a service that keeps refusals, on its database. */
export function refusalRetentionProvider(): FactoryProvider<RefusalRetention> {
  return {
    provide: RefusalRetention,
    inject: [Database, { token: PeriodicJobMetrics, optional: true }],
    useFactory: (db: Database, metrics?: PeriodicJobMetrics) => new RefusalRetention(db, metrics),
  };
}
