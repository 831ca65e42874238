import { EventPayload, EventTopic } from '@partner/contracts';
import { ConnectionPool, Queryable, Statement, statement, Transaction, UnitOfWork } from './unit-of-work';

/** A row of a service's `outbox_messages` waiting to be published. */
export interface OutboxRow {
  row_id: string;
  topic: EventTopic;
  key: string;
  payload: EventPayload<EventTopic>;
  request_id: string | null;
  traceparent: string | null;
}

/**
 * A service's `outbox_messages` table, as its relay (libs/kafka's OutboxRelay) reads and keeps it: batches
 * of pending rows in id order under a transaction-scoped advisory lock (one publisher at a time), marked
 * published in the transaction that read them; the backlog; the removal of old published rows.
 */
export class OutboxStore {
  private readonly table: string;
  private readonly lockKey: string;
  private readonly transactions: UnitOfWork;
  private readonly pending: Statement;
  private readonly markPublished: Statement;

  constructor(
    private readonly db: Queryable & ConnectionPool,
    schema: string,
  ) {
    this.table = `"${schema}"."outbox_messages"`;
    this.lockKey = this.table;
    this.transactions = new UnitOfWork(db);
    // Ordered by the bigint column, not by the text alias of the output (which would put 10 before 2).
    this.pending = statement(
      `outbox_pending_${schema}`,
      `SELECT id::text AS row_id, topic, key, payload, request_id, traceparent FROM ${this.table} WHERE published_at IS NULL ORDER BY id LIMIT $1`,
    );
    this.markPublished = statement(
      `outbox_published_${schema}`,
      `UPDATE ${this.table} SET published_at = now() WHERE id = ANY($1::bigint[])`,
    );
  }

  /**
   * One transaction (a UnitOfWork, which never emits here): take the lock, read up to `limit` pending rows,
   * hand them to `publish`, mark them published once it resolved. 'locked' when another instance holds the lock.
   */
  publishBatch(limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number | 'locked'> {
    return this.transactions.run(async (tx: Transaction) => {
      const {
        rows: [{ locked }],
      } = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [this.lockKey]);
      if (!locked) return 'locked';
      const { rows } = await tx.query<OutboxRow>(this.pending, [limit]);
      if (rows.length > 0) {
        await publish(rows);
        await tx.query(this.markPublished, [rows.map((r) => r.row_id)]);
      }
      return rows.length;
    });
  }

  /** What is waiting to be published: how many rows, and how long the oldest has waited (for /metrics). */
  async backlog(): Promise<{ pending: number; oldestAgeSeconds: number }> {
    const { rows } = await this.db.query<{ pending: number; age: number }>(
      `SELECT count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
       FROM ${this.table} WHERE published_at IS NULL`,
    );
    return { pending: rows[0].pending, oldestAgeSeconds: rows[0].age };
  }

  /** Removes the rows published more than `hours` ago (docs/architecture.md: "Outbox"). */
  async prunePublished(hours: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.table} WHERE published_at < now() - make_interval(hours => $1)`, [hours]);
  }
}
