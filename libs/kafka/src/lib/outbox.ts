import { BeforeApplicationShutdown, DynamicModule, FactoryProvider, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ConnectionPool, Database, EventOrigin, OutboxRow, OutboxStore, Queryable, UnitOfWork } from '@partner/db';
import { CONTEXT_HEADERS, PeriodicJob, PeriodicJobMetrics, RequestContexts } from '@partner/runtime';
import { MessageBus } from './message-bus';
import { currentTraceparent, sendSpanFromTraceparent, tracedSend } from './trace-context';

/**
 * Where the events of the current call come from, for a unit of work to store beside them: the request
 * context's id (null for timers' moves) and the current trace's traceparent (null untraced).
 */
export const eventOrigin = (): EventOrigin => ({
  requestId: RequestContexts.current()?.requestId ?? null,
  traceparent: currentTraceparent(),
});

export interface OutboxRelayOptions {
  schema: string;
  /** The safety-net poll: events normally leave when a committed transaction wakes the relay. */
  pollMs: number;
  batchSize?: number;
  retentionHours?: number;
}

/**
 * Publishes a service's outbox to Kafka. One relay per service publishes at a time (a transaction-scoped
 * advisory lock), in id order, so the events of one resource reach Kafka in the order they were
 * committed. Rows are marked published in the same transaction that read them, after the broker
 * acknowledged them; a crash in between publishes them again, which consumers absorb by event id.
 *
 * It publishes when woken (a unit of work committed events) and polls only as a safety net (rows
 * written by another instance, a publish that failed). Wakes that arrive while it publishes are
 * folded into one more round, so under load every round carries a batch.
 */
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly store: OutboxStore;
  private readonly job: PeriodicJob;
  private lastPrune = 0;

  constructor(
    db: Queryable & ConnectionPool,
    private readonly bus: Pick<MessageBus, 'publishBatch'>,
    private readonly options: OutboxRelayOptions,
    metrics?: PeriodicJobMetrics,
  ) {
    this.store = new OutboxStore(db, options.schema);
    // A round right at start (rows left by the previous run), then the safety-net poll.
    this.job = new PeriodicJob({ name: 'outbox-relay', intervalMs: options.pollMs, firstRunAfterMs: 0, run: () => this.round(), metrics });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** Stops before the producer and the database go away; the batch in flight completes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.job.stop();
  }

  /** Called after a transaction that wrote outbox rows commits, so events leave at once, not at the next poll. */
  wake(): void {
    this.job.runNow();
  }

  /** Publishes everything pending now; returns how many messages went out. */
  async drain(): Promise<number> {
    const batchSize = this.options.batchSize ?? 500;
    let total = 0;
    for (;;) {
      const sent = await this.publishBatch(batchSize);
      if (sent === 'locked') {
        // Another instance is publishing; it will see these rows too, or the next poll will.
        return total;
      }
      total += sent;
      if (sent < batchSize) return total;
    }
  }

  /**
   * One round of the job. Wakes during a round make the job run another one right after it. A failure
   * (the broker or the database is away) leaves the rows pending; the job logs it and the next poll tries again.
   */
  private async round(): Promise<void> {
    await this.drain();
    await this.pruneOccasionally();
  }

  /** One transaction (OutboxStore.publishBatch): take the lock, read, publish, mark. */
  private publishBatch(limit: number): Promise<number | 'locked'> {
    return this.store.publishBatch(limit, async (rows: OutboxRow[]) => {
      // Each event continues the trace of the transaction that wrote it (docs/operations/observability.md: "Tracing").
      const traces = rows.map((r) => sendSpanFromTraceparent(r.topic, r.key, r.traceparent));
      // The id of the request that caused an event travels as a header; the payload stays the contract's.
      const messages = rows.map((r, i) => ({
        topic: r.topic,
        key: r.key,
        payload: r.payload,
        headers: { ...(r.request_id ? { [CONTEXT_HEADERS.requestId]: r.request_id } : {}), ...traces[i]?.headers },
      }));
      await tracedSend(traces, this.bus.publishBatch(messages));
    });
  }

  /** What is waiting to be published: how many rows, and how long the oldest has waited (for /metrics). */
  backlog(): Promise<{ pending: number; oldestAgeSeconds: number }> {
    return this.store.backlog();
  }

  /** Published rows are kept a while for audit and replay, then removed (docs/architecture.md: "Outbox"). */
  private async pruneOccasionally(): Promise<void> {
    if (Date.now() - this.lastPrune < 10 * 60_000) return;
    this.lastPrune = Date.now();
    await this.store.prunePublished(this.options.retentionHours ?? 24 * 7);
  }
}

type PollConfigClass = abstract new (...args: never[]) => { OUTBOX_POLL_MS: number };

/**
 * The relay of one service's outbox as a Nest provider: its database, its config (for OUTBOX_POLL_MS) and
 * the PostgreSQL schema that holds its `outbox_messages`.
 */
export function outboxRelayProvider(config: PollConfigClass, schema: string): FactoryProvider<OutboxRelay> {
  return {
    provide: OutboxRelay,
    inject: [Database, MessageBus, config, { token: PeriodicJobMetrics, optional: true }],
    useFactory: (db: Database, bus: MessageBus, c: { OUTBOX_POLL_MS: number }, metrics?: PeriodicJobMetrics) =>
      new OutboxRelay(db, bus, { schema, pollMs: c.OUTBOX_POLL_MS }, metrics),
  };
}

/**
 * A service's outbox, global to it: the unit of work its use cases run their transactions in (which
 * writes the events with the change and wakes the relay after COMMIT), and the relay that publishes them.
 */
export function outboxModule(config: PollConfigClass, schema: string): DynamicModule {
  @Module({})
  class OutboxModule {}
  return {
    module: OutboxModule,
    global: true,
    providers: [
      outboxRelayProvider(config, schema),
      {
        provide: UnitOfWork,
        inject: [Database, OutboxRelay],
        useFactory: (db: Database, relay: OutboxRelay) => new UnitOfWork(db, relay, eventOrigin),
      },
    ],
    exports: [OutboxRelay, UnitOfWork],
  };
}
