import { BeforeApplicationShutdown, DynamicModule, FactoryProvider, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { Pool } from 'pg';
import { EventPayload, EventTopic } from '@partner/contracts';
import { MessageBus } from './message-bus';
import { PeriodicJob, PeriodicJobMetrics } from './periodic-job';
import { CONTEXT_HEADERS } from './request-context';
import { sendSpanFromTraceparent, tracedSend } from './trace-context';
import { Statement, statement, UnitOfWork } from './unit-of-work';

export type { OutboxMessage } from './outbox-message';
export { outboxMessage } from './outbox-message';

/** The connection pool of a service's database (the pg driver's, shared with its Prisma client). */
export type SqlPool = Pick<Pool, 'connect' | 'query'>;

/** What a service's PrismaService offers the outbox: the pool underneath it. */
export interface HasPool {
  readonly pool: SqlPool;
}

interface OutboxRow {
  row_id: string;
  topic: EventTopic;
  key: string;
  payload: EventPayload<EventTopic>;
  request_id: string | null;
  traceparent: string | null;
}

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
  private readonly table: string;
  private readonly lockKey: string;
  private readonly transactions: UnitOfWork;
  private readonly pending: Statement;
  private readonly markPublished: Statement;
  private readonly job: PeriodicJob;
  private lastPrune = 0;

  constructor(
    private readonly pool: SqlPool,
    private readonly bus: Pick<MessageBus, 'publishBatch'>,
    private readonly options: OutboxRelayOptions,
    metrics?: PeriodicJobMetrics,
  ) {
    this.table = `"${options.schema}"."outbox_messages"`;
    this.lockKey = this.table;
    this.transactions = new UnitOfWork(pool);
    // Ordered by the bigint column, not by the text alias of the output (which would put 10 before 2).
    this.pending = statement(
      `outbox_pending_${options.schema}`,
      `SELECT id::text AS row_id, topic, key, payload, request_id, traceparent FROM ${this.table} WHERE published_at IS NULL ORDER BY id LIMIT $1`,
    );
    this.markPublished = statement(`outbox_published_${options.schema}`, `UPDATE ${this.table} SET published_at = now() WHERE id = ANY($1::bigint[])`);
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

  /** One transaction (a UnitOfWork, which never emits here): take the lock, read, publish, mark. */
  private publishBatch(limit: number): Promise<number | 'locked'> {
    return this.transactions.run(async (tx) => {
      const [{ locked }] = await tx.rows<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [this.lockKey]);
      if (!locked) return 'locked';
      const rows = await tx.rows<OutboxRow>(this.pending, [limit]);
      if (rows.length > 0) {
        // Each event continues the trace of the transaction that wrote it (docs/operations.md: "Tracing").
        const traces = rows.map((r) => sendSpanFromTraceparent(r.topic, r.key, r.traceparent));
        // The id of the request that caused an event travels as a header; the payload stays the contract's.
        const messages = rows.map((r, i) => ({
          topic: r.topic,
          key: r.key,
          payload: r.payload,
          headers: { ...(r.request_id ? { [CONTEXT_HEADERS.requestId]: r.request_id } : {}), ...traces[i]?.headers },
        }));
        await tracedSend(traces, this.bus.publishBatch(messages));
        await tx.rows(this.markPublished, [rows.map((r) => r.row_id)]);
      }
      return rows.length;
    });
  }


  /** What is waiting to be published: how many rows, and how long the oldest has waited (for /metrics). */
  async backlog(): Promise<{ pending: number; oldestAgeSeconds: number }> {
    const { rows } = await this.pool.query<{ pending: number; age: number }>(
      `SELECT count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
       FROM ${this.table} WHERE published_at IS NULL`,
    );
    return { pending: rows[0].pending, oldestAgeSeconds: rows[0].age };
  }

  /** Published rows are kept a while for audit and replay, then removed (docs/architecture.md: "Outbox"). */
  private async pruneOccasionally(): Promise<void> {
    if (Date.now() - this.lastPrune < 10 * 60_000) return;
    this.lastPrune = Date.now();
    const hours = this.options.retentionHours ?? 24 * 7;
    await this.pool.query(`DELETE FROM ${this.table} WHERE published_at < now() - make_interval(hours => $1)`, [hours]);
  }
}

/** A service's Prisma service class, as a Nest token: what the outbox and the refusal retention take their pool from. */
export type PooledClass = abstract new (...args: never[]) => HasPool;
type PollConfigClass = abstract new (...args: never[]) => { OUTBOX_POLL_MS: number };

/**
 * The relay of one service's outbox as a Nest provider: its Prisma service (for the pool underneath),
 * its config (for OUTBOX_POLL_MS) and the PostgreSQL schema that holds its `outbox_messages`.
 */
export function outboxRelayProvider(sql: PooledClass, config: PollConfigClass, schema: string): FactoryProvider<OutboxRelay> {
  return {
    provide: OutboxRelay,
    inject: [sql, MessageBus, config, { token: PeriodicJobMetrics, optional: true }],
    useFactory: (db: HasPool, bus: MessageBus, c: { OUTBOX_POLL_MS: number }, metrics?: PeriodicJobMetrics) =>
      new OutboxRelay(db.pool, bus, { schema, pollMs: c.OUTBOX_POLL_MS }, metrics),
  };
}

/**
 * A service's outbox, global to it: the unit of work its use cases run their transactions in (which
 * writes the events with the change and wakes the relay after COMMIT), and the relay that publishes them.
 */
export function outboxModule(sql: PooledClass, config: PollConfigClass, schema: string): DynamicModule {
  @Module({})
  class OutboxModule {}
  return {
    module: OutboxModule,
    global: true,
    providers: [
      outboxRelayProvider(sql, config, schema),
      { provide: UnitOfWork, inject: [sql, OutboxRelay], useFactory: (db: HasPool, relay: OutboxRelay) => new UnitOfWork(db.pool, relay) },
    ],
    exports: [OutboxRelay, UnitOfWork],
  };
}
