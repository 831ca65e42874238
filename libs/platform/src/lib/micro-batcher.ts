import { RequestContexts } from '@partner/runtime';

/**
 * Turns many concurrent single-item calls into a few batched ones: `submit(item)` queues the item and
 * answers with the batch's result for it. Items submitted while a flush is running (or during the same
 * event-loop turn as the first one) wait and go out together in the next flush, at most `maxBatchSize`
 * at a time. So under light load an item goes out on its own almost at once, and under heavy load the
 * batch grows with the backlog, with no timer to tune.
 *
 * Failure: each caller's promise settles only when its batch has committed (resolved) or failed
 * (rejected). When a batch of several items fails, each of its items is retried once on its own, so one
 * item the flush cannot take (a bad row, a constraint) fails alone and the others still go through; an
 * item failing alone too is rejected (a Kafka consumer then leaves it to redelivery). When the cause is
 * general (the database is down), every item fails again quickly and is redelivered the same way.
 */
export interface MicroBatcherOptions {
  /** The most items one flush gets; more waiting items go out in the following flushes. */
  maxBatchSize: number;
  /** Flushes allowed to run at the same time (default 1: the next batch forms while one is out). */
  concurrency?: number;
  /** Told about a failed batch before its items are retried alone (for logging). */
  onBatchError?: (error: unknown, size: number) => void;
}

/**
 * Writes a batch; answers one result per item, in the items' order. It must be all-or-nothing (one
 * transaction): a rejection means none of the items took effect, so retrying them is safe.
 */
export type FlushBatch<T, R> = (items: T[]) => Promise<R[]>;

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class MicroBatcher<T, R> {
  private readonly queue: Array<Pending<T, R>> = [];
  private readonly maxBatchSize: number;
  private readonly concurrency: number;
  private running = 0;
  private scheduled = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly flush: FlushBatch<T, R>,
    private readonly options: MicroBatcherOptions,
  ) {
    if (!Number.isInteger(options.maxBatchSize) || options.maxBatchSize < 1)
      throw new RangeError('maxBatchSize must be a positive integer');
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    this.maxBatchSize = options.maxBatchSize;
    this.concurrency = concurrency;
  }

  /** Queues the item; settles with its result once its batch has committed, or with the failure. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Items queued and not yet handed to a flush. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves once nothing is waiting or being flushed (for shutdown and tests). */
  whenIdle(): Promise<void> {
    if (this.queue.length === 0 && this.running === 0 && !this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.concurrency) return; // a finishing flush picks the queue up
    this.scheduled = true;
    // setImmediate, not a microtask: calls made in the same turn (several messages handed over at once,
    // each resuming after an await) all land in the first batch instead of the first one going alone.
    // Outside the submitter's request context: a batch serves many messages, not the first one's request.
    RequestContexts.outside(() =>
      setImmediate(() => {
        this.scheduled = false;
        this.startFlushes();
      }),
    );
  }

  private startFlushes(): void {
    while (this.queue.length > 0 && this.running < this.concurrency) {
      const batch = this.queue.splice(0, this.maxBatchSize);
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        if (this.queue.length > 0) this.startFlushes();
        else if (this.running === 0 && !this.scheduled) this.idleWaiters.splice(0).forEach((wake) => wake());
      });
    }
  }

  private async run(batch: Array<Pending<T, R>>): Promise<void> {
    try {
      const results = await this.flushChecked(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      this.options.onBatchError?.(error, batch.length);
    }
    // One at a time: the batch failed as a whole, so its items are likely to contend with each other.
    for (const p of batch) {
      try {
        p.resolve((await this.flushChecked([p.item]))[0]);
      } catch (error) {
        p.reject(error);
      }
    }
  }

  private async flushChecked(items: T[]): Promise<R[]> {
    const results = await this.flush(items);
    if (results.length !== items.length) throw new Error(`flush answered ${results.length} results for ${items.length} items`);
    return results;
  }
}
