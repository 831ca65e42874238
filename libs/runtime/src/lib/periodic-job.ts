import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestContexts } from './request-context';

/**
 * The metrics of every periodic job of a process, labelled by job. Registered in no registry of their
 * own: the app's /metrics (metricsModule) provides this class and adds them to its registry.
 */
@Injectable()
export class PeriodicJobMetrics {
  readonly runs = new Counter({
    name: 'periodic_job_runs_total',
    help: 'Runs of each periodic job, failed ones included',
    labelNames: ['job'],
    registers: [],
  });
  readonly failures = new Counter({
    name: 'periodic_job_failures_total',
    help: 'Runs of each periodic job that failed (the job keeps going)',
    labelNames: ['job'],
    registers: [],
  });
  readonly duration = new Histogram({
    name: 'periodic_job_duration_seconds',
    help: 'How long each run of a periodic job took',
    labelNames: ['job'],
    registers: [],
  });

  registerIn(registry: Registry): void {
    for (const metric of [this.runs, this.failures, this.duration]) registry.registerMetric(metric);
  }
}

export interface PeriodicJobOptions {
  /** Names the job in logs and in the metrics' `job` label. */
  name: string;
  /** The pause between the end of one run and the start of the next (with `fixedRate`, between their starts). */
  intervalMs: number;
  /**
   * Runs start every `intervalMs` rather than `intervalMs` after the last one ended: a run that took d waits
   * `intervalMs` − d (none when it took longer). For a job whose run's length grows with its work and whose
   * work comes at a pace of its own (the payout rounds and the chain's blocks).
   */
  fixedRate?: boolean;
  /** The pause before the first run (default: `intervalMs`). */
  firstRunAfterMs?: number;
  /**
   * One run. A rejection is logged and counted; the next run comes after the usual pause. `signal` is aborted
   * when the job stops: a long run checks it between its steps and ends early, so that shutting down does
   * not wait for the whole of it.
   */
  run: (signal: AbortSignal) => Promise<unknown>;
  metrics?: PeriodicJobMetrics;
}

/**
 * Runs `run` every `intervalMs`, one run at a time: the next one is scheduled only once the previous
 * one has settled, so a slow run delays the next instead of overlapping it. `runNow()` asks for a run
 * at once (one more right after the current one, when it comes during a run: wakes during a run fold
 * into that one). `stop()` cancels what is scheduled, aborts the run in progress's signal and waits for it.
 *
 * Runs belong to no request: a `runNow()` from inside one (the outbox relay woken after a commit) would
 * otherwise carry its request id and trace into every later run.
 */
export class PeriodicJob {
  private readonly logger: Logger;
  private state: 'new' | 'started' | 'stopped' = 'new';
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
  private again = false;
  private readonly stopping = new AbortController();

  constructor(private readonly options: PeriodicJobOptions) {
    this.logger = new Logger(options.name);
  }

  /** Schedules the first run; a job starts once (a stopped job stays stopped). */
  start(): void {
    if (this.state !== 'new') return;
    this.state = 'started';
    this.schedule(this.options.firstRunAfterMs ?? this.options.intervalMs);
  }

  /** A run as soon as possible; ignored before start and after stop. */
  runNow(): void {
    if (this.state !== 'started') return;
    if (this.current) this.again = true;
    else this.schedule(0);
  }

  /** No run starts after this; the run in progress, if any, is told to end early; resolves once it has settled. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.current;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = RequestContexts.outside(() => setTimeout(() => void this.tick(), delayMs));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.state !== 'started') return;
    this.again = false;
    const started = Date.now();
    this.current = this.runOnce();
    await this.current;
    this.current = undefined;
    if (this.state !== 'started') return;
    const { intervalMs, fixedRate } = this.options;
    this.schedule(this.again ? 0 : fixedRate ? Math.max(0, intervalMs - (Date.now() - started)) : intervalMs);
  }

  private async runOnce(): Promise<void> {
    const { name, metrics } = this.options;
    const done = metrics?.duration.startTimer({ job: name });
    try {
      await this.options.run(this.stopping.signal);
    } catch (error) {
      metrics?.failures.inc({ job: name });
      this.logger.warn(`${name} failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      metrics?.runs.inc({ job: name });
      done?.();
    }
  }
}

/**
 * A periodic job as a Nest provider: started when the application has bootstrapped, stopped (its run in
 * progress told to end early, and awaited) before shutdown takes the database and the broker away. A subclass only says what
 * the job is: `super({ name, intervalMs: config.X_MS, run: () => useCase.execute() })`.
 */
export abstract class PeriodicJobService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  // A property, not a constructor parameter, so subclasses need not pass it up.
  @Optional() @Inject(PeriodicJobMetrics) private readonly metrics?: PeriodicJobMetrics;
  private job?: PeriodicJob;

  protected constructor(private readonly options: Omit<PeriodicJobOptions, 'metrics'>) {}

  onApplicationBootstrap(): void {
    this.job ??= new PeriodicJob({ ...this.options, metrics: this.metrics });
    this.job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  /** Another run right after this one, without the pause (work is left over); a no-op before start. */
  protected runAgainNow(): void {
    this.job?.runNow();
  }
}
