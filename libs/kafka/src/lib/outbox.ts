import { BeforeApplicationShutdown, DynamicModule, FactoryProvider, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { EventPayload, EventTopic } from '@partner/contracts';
import { MessageBus } from './message-bus';

/** A row of a service's `outbox_messages` table, written in the same transaction as the change it reports. */
export interface OutboxMessage<T extends EventTopic = EventTopic> {
  topic: T;
  key: string;
  payload: EventPayload<T>;
}

/** Builds an outbox row; typed so that a payload that does not belong to the topic does not compile. */
export function outboxMessage<T extends EventTopic>(topic: T, key: string, payload: EventPayload<T>): OutboxMessage<T> {
  return { topic, key, payload };
}

/**
 * The slice of a transaction client an outbox write needs: the service's `outbox_messages` model, which
 * every service declares with the same shape (prisma/<service>/schema.prisma).
 */
export interface OutboxWriter {
  outboxMessage: { create(args: { data: { topic: string; key: string; payload: object } }): Promise<unknown> };
}

/** Writes outbox rows; only ever inside the transaction of the change they report. */
@Injectable()
export class OutboxRepository {
  async add<T extends EventTopic>(tx: OutboxWriter, message: OutboxMessage<T>): Promise<void> {
    await tx.outboxMessage.create({ data: { topic: message.topic, key: message.key, payload: message.payload } });
  }
}

/** The slice of a Prisma client the relay needs; every generated client has it. */
export interface RawSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}
export interface TransactionalSql extends RawSql {
  $transaction<R>(fn: (tx: RawSql) => Promise<R>, options?: { timeout?: number; maxWait?: number }): Promise<R>;
}

interface OutboxRow {
  id: bigint;
  topic: EventTopic;
  key: string;
  payload: EventPayload<EventTopic>;
}

/**
 * Publishes a service's outbox to Kafka. One relay per service publishes at a time (a transaction-scoped
 * advisory lock), in id order, so the events of one resource reach Kafka in the order they were
 * committed. Rows are marked published in the same transaction that read them, after the broker
 * acknowledged them; a crash in between publishes them again, which consumers absorb by event id.
 */
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly table: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly sql: TransactionalSql,
    private readonly bus: MessageBus,
    private readonly options: { schema: string; pollMs: number; batchSize?: number; retentionHours?: number },
  ) {
    this.table = `"${options.schema}"."outbox_messages"`;
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  /** Stops before the producer and the database go away; the batch in flight completes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Called after a transaction that wrote outbox rows commits, so events leave at once, not at the next poll. */
  wake(): void {
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Publishes everything pending now; returns how many messages went out. */
  async drain(): Promise<number> {
    const batchSize = this.options.batchSize ?? 500;
    let total = 0;
    for (;;) {
      const sent = await this.publishBatch(batchSize);
      total += sent;
      if (sent < batchSize) return total;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again && !this.stopped);
        await this.pruneOccasionally();
      } catch (error) {
        // The broker or the database is away: the rows stay pending and the next poll tries again.
        this.logger.warn(`Outbox relay for ${this.options.schema} will retry: ${(error as Error).message}`);
      }
    })();
    await this.running;
    this.running = undefined;
    this.schedule(this.again ? 0 : this.options.pollMs);
  }

  private publishBatch(limit: number): Promise<number> {
    return this.sql.$transaction(
      async (tx) => {
        const [{ locked }] = await tx.$queryRawUnsafe<Array<{ locked: boolean }>>(
          'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked',
          this.table,
        );
        if (!locked) return 0;
        const rows = await tx.$queryRawUnsafe<OutboxRow[]>(
          `SELECT id, topic, key, payload FROM ${this.table} WHERE published_at IS NULL ORDER BY id LIMIT $1`,
          limit,
        );
        if (rows.length === 0) return 0;
        await this.bus.publishBatch(rows.map((r) => ({ topic: r.topic, key: r.key, payload: r.payload })));
        await tx.$executeRawUnsafe(
          `UPDATE ${this.table} SET published_at = now() WHERE id = ANY($1::bigint[])`,
          rows.map((r) => r.id.toString()),
        );
        return rows.length;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
  }

  /** What is waiting to be published: how many rows, and how long the oldest has waited (for /metrics). */
  async backlog(): Promise<{ pending: number; oldestAgeSeconds: number }> {
    const [row] = await this.sql.$queryRawUnsafe<Array<{ pending: number; age: number }>>(
      `SELECT count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
       FROM ${this.table} WHERE published_at IS NULL`,
    );
    return { pending: row.pending, oldestAgeSeconds: row.age };
  }

  /** Published rows are kept a while for audit and replay, then removed (README: retention). */
  private async pruneOccasionally(): Promise<void> {
    if (Date.now() - this.lastPrune < 10 * 60_000) return;
    this.lastPrune = Date.now();
    const hours = this.options.retentionHours ?? 24 * 7;
    await this.sql.$executeRawUnsafe(
      `DELETE FROM ${this.table} WHERE published_at < now() - make_interval(hours => $1)`,
      hours,
    );
  }
}

/**
 * The relay of one service's outbox as a Nest provider: its Prisma client (any TransactionalSql), its
 * config (for OUTBOX_POLL_MS) and the PostgreSQL schema that holds its `outbox_messages`.
 */
export function outboxRelayProvider(
  sql: abstract new (...args: never[]) => TransactionalSql,
  config: abstract new (...args: never[]) => { OUTBOX_POLL_MS: number },
  schema: string,
): FactoryProvider<OutboxRelay> {
  return {
    provide: OutboxRelay,
    inject: [sql, MessageBus, config],
    useFactory: (db: TransactionalSql, bus: MessageBus, c: { OUTBOX_POLL_MS: number }) =>
      new OutboxRelay(db, bus, { schema, pollMs: c.OUTBOX_POLL_MS }),
  };
}

/**
 * A service's outbox, global to it: the writer its use cases call inside their transactions, and the
 * relay that publishes what they wrote.
 */
export function outboxModule(
  sql: abstract new (...args: never[]) => TransactionalSql,
  config: abstract new (...args: never[]) => { OUTBOX_POLL_MS: number },
  schema: string,
): DynamicModule {
  @Module({})
  class OutboxModule {}
  return {
    module: OutboxModule,
    global: true,
    providers: [OutboxRepository, outboxRelayProvider(sql, config, schema)],
    exports: [OutboxRelay, OutboxRepository],
  };
}
