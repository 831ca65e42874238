import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { PeriodicJob, PeriodicJobMetrics, PeriodicJobOptions, PeriodicJobService } from './periodic-job';
import { RequestContexts } from './request-context';

/** A run the test finishes by hand, so it can look at the job while the run is in progress. */
function controllableRuns() {
  const runs: Array<{ finish: () => void; fail: (error: Error) => void }> = [];
  let active = 0;
  let maxActive = 0;
  const run = () =>
    new Promise<void>((resolve, reject) => {
      active++;
      maxActive = Math.max(maxActive, active);
      const settle = () => active--;
      runs.push({ finish: () => (settle(), resolve()), fail: (error) => (settle(), reject(error)) });
    });
  return { run, runs, maxActive: () => maxActive };
}

/** A job over controllable runs. */
function jobOf(options: Omit<PeriodicJobOptions, 'name' | 'run'> & { name?: string }) {
  const runs = controllableRuns();
  return { ...runs, job: new PeriodicJob({ name: 'test', ...options, run: runs.run }) };
}

async function metricValue(metrics: PeriodicJobMetrics, name: string, job: string): Promise<number | undefined> {
  const registry = new Registry();
  metrics.registerIn(registry);
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return metric?.values.find((v) => v.labels.job === job && !('le' in v.labels))?.value;
}

describe('PeriodicJob', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('first runs after firstRunAfterMs (intervalMs by default), then intervalMs after each run settles', async () => {
    const { job, runs } = jobOf({ intervalMs: 1_000, firstRunAfterMs: 100 });
    job.start();
    await jest.advanceTimersByTimeAsync(99);
    expect(runs).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    runs[0].finish();
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await job.stop();

    const byDefault = jobOf({ intervalMs: 500 });
    const other = byDefault.job;
    other.start();
    await jest.advanceTimersByTimeAsync(499);
    expect(byDefault.runs).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(byDefault.runs).toHaveLength(1);
    byDefault.runs[0].finish();
    await other.stop();
  });

  it('never overlaps runs: a run slower than the interval delays the next one', async () => {
    const { job, runs, maxActive } = jobOf({ intervalMs: 10 });
    job.start();
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000);
    job.runNow();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(1);
    runs[0].finish();
    // The wake during the run asked for one more at once, not an interval later.
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(3);
    runs[2].finish();
    await job.stop();
    expect(maxActive()).toBe(1);
  });

  it('with fixedRate, runs start every intervalMs: a run that took d waits intervalMs − d, a longer one none', async () => {
    const { job, runs, maxActive } = jobOf({ intervalMs: 1_000, fixedRate: true });
    job.start();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(300);
    runs[0].finish();
    // Started at 1,000 and took 300 ms: the next starts at 2,000, not 1,000 ms after it ended.
    await jest.advanceTimersByTimeAsync(699);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    // Longer than the interval: the next one at once, still never two at a time.
    await jest.advanceTimersByTimeAsync(1_500);
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(3);
    runs[2].finish();
    await job.stop();
    expect(maxActive()).toBe(1);
  });

  it('runNow runs at once when idle, and not before start or after stop', async () => {
    const { job, runs } = jobOf({ intervalMs: 60_000 });
    job.runNow();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(0);
    job.start();
    job.runNow();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    runs[0].finish();
    await job.stop();
    job.runNow();
    await jest.advanceTimersByTimeAsync(120_000);
    expect(runs).toHaveLength(1);
  });

  it('stop waits for the run in progress and nothing runs after it', async () => {
    const { job, runs } = jobOf({ intervalMs: 10 });
    job.start();
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(1);
    job.runNow();
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    runs[0].finish();
    await stopping;
    expect(stopped).toBe(true);
    // No timer left behind to hold the process open.
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(1);
  });

  it('counts runs and failures, and keeps going after a failed run', async () => {
    const metrics = new PeriodicJobMetrics();
    const { job, runs } = jobOf({ name: 'flaky', intervalMs: 10, metrics });
    job.start();
    await jest.advanceTimersByTimeAsync(10);
    runs[0].fail(new Error('database away'));
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await jest.advanceTimersByTimeAsync(0);
    await job.stop();

    expect(await metricValue(metrics, 'periodic_job_runs_total', 'flaky')).toBe(2);
    expect(await metricValue(metrics, 'periodic_job_failures_total', 'flaky')).toBe(1);
    const registry = new Registry();
    metrics.registerIn(registry);
    expect(await registry.metrics()).toMatch(/^periodic_job_duration_seconds_count\{job="flaky"\} 2$/m);
  });

  it('stop aborts the signal of the run in progress, so a long run can end early', async () => {
    const steps: number[] = [];
    const job = new PeriodicJob({
      name: 'long',
      intervalMs: 10,
      firstRunAfterMs: 0,
      // A run of ten steps of 100 ms that looks at its signal between steps.
      run: async (signal) => {
        for (let step = 0; step < 10 && !signal.aborted; step++) {
          steps.push(step);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
    });
    job.start();
    await jest.advanceTimersByTimeAsync(150);
    expect(steps).toEqual([0, 1]);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(100);
    await stopping;
    expect(stopped).toBe(true);
    expect(steps).toEqual([0, 1]);
  });

  it('keeps going after a run that throws synchronously', async () => {
    let calls = 0;
    const job = new PeriodicJob({
      name: 'test',
      intervalMs: 10,
      run: () => {
        calls++;
        throw new Error('sync');
      },
    });
    job.start();
    await jest.advanceTimersByTimeAsync(30);
    expect(calls).toBe(3);
    await job.stop();
  });
});

describe('PeriodicJob on real timers', () => {
  it('runs outside the request that woke it', async () => {
    const seen: Array<string | undefined> = [];
    const job = new PeriodicJob({
      name: 'test',
      intervalMs: 60_000,
      run: async () => void seen.push(RequestContexts.current()?.requestId),
    });
    job.start();
    RequestContexts.run({ requestId: 'req-1' }, () => job.runNow());
    const deadline = Date.now() + 2_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    await job.stop();
    expect(seen).toEqual([undefined]);
  });
});

describe('PeriodicJobService', () => {
  it('starts with the application, counts in the metrics it is given, and stops before shutdown', async () => {
    let runs = 0;
    let inRun = false;
    let release = () => undefined as void;

    @Injectable()
    class Job extends PeriodicJobService {
      constructor() {
        super({
          name: 'nest-job',
          intervalMs: 60_000,
          firstRunAfterMs: 0,
          run: () => {
            runs++;
            inRun = true;
            return new Promise<void>((resolve) => (release = () => ((inRun = false), resolve())));
          },
        });
      }
    }
    @Module({ providers: [Job, PeriodicJobMetrics] })
    class JobModule {}

    const app = await Test.createTestingModule({ imports: [JobModule] }).compile();
    await app.init();
    const deadline = Date.now() + 2_000;
    while (runs === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(1);
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    expect(inRun).toBe(true);
    release();
    await closing;
    expect(await metricValue(app.get(PeriodicJobMetrics), 'periodic_job_runs_total', 'nest-job')).toBe(1);
  });

  it('runs without metrics when the app has none', async () => {
    let runs = 0;
    @Injectable()
    class Job extends PeriodicJobService {
      constructor() {
        super({ name: 'bare', intervalMs: 60_000, firstRunAfterMs: 0, run: async () => void runs++ });
      }
    }
    const app = await Test.createTestingModule({ providers: [Job] }).compile();
    await app.init();
    const deadline = Date.now() + 2_000;
    while (runs === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    await app.close();
    expect(runs).toBe(1);
  });
});
