import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { EventTopic } from '@partner/contracts';
import { OutboxMessage } from './outbox-message';
import { RequestContexts } from './request-context';

/** A SQL statement prepared once per connection (the server keeps its plan): a name and its text. */
export interface Statement {
  name: string;
  text: string;
}

/** Declares a prepared statement; `name` must be unique in the service. */
export const statement = (name: string, text: string): Statement => ({ name, text });

/** What a use case does inside a unit of work: statements on one connection, and events to report. */
export interface Transaction {
  /** Runs a statement in the transaction and returns its rows. */
  rows<R extends QueryResultRow>(statement: Statement | string, values?: unknown[]): Promise<R[]>;
  /** Records an event to publish; it is written to the outbox in this transaction, just before COMMIT. */
  emit<T extends EventTopic>(message: OutboxMessage<T>): void;
}

// request_id: the request that caused the events (README: "Request ids"), null for timers' moves.
const INSERT_OUTBOX = statement(
  'outbox_insert',
  'INSERT INTO outbox_messages (topic, key, payload, request_id) SELECT t, k, p, $4::text FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS u(t, k, p)',
);

/** Something to wake once events were committed: the service's outbox relay. */
export interface Wakeable {
  wake(): void;
}

class PgTransaction implements Transaction {
  readonly outbox: OutboxMessage[] = [];
  constructor(private readonly client: PoolClient) {}

  async rows<R extends QueryResultRow>(s: Statement | string, values: unknown[] = []): Promise<R[]> {
    const result = typeof s === 'string' ? await this.client.query<R>(s, values) : await this.client.query<R>({ name: s.name, text: s.text, values });
    return result.rows;
  }

  emit<T extends EventTopic>(message: OutboxMessage<T>): void {
    this.outbox.push(message as unknown as OutboxMessage);
  }
}

/**
 * Runs a command's transaction on the pg driver directly, in as few round trips as it needs: BEGIN, the
 * use case's own statements (prepared, so parsed and planned once per connection), one multi-row
 * INSERT of every event it emitted, COMMIT. Then it wakes the outbox relay, so the events leave at once
 * and no use case ever calls the relay itself. Either everything commits (the change and the events
 * reporting it) or nothing does.
 *
 * The ORM stays for what is not hot; this is for the paths that run per request or per event, where the
 * profile showed the ORM's per-query work as the largest single cost.
 */
export class UnitOfWork {
  /** `relay` may be left out by a service without an outbox (the events projector); it then may not emit. */
  constructor(
    private readonly pool: Pick<Pool, 'connect'>,
    private readonly relay?: Wakeable,
  ) {}

  async run<R>(work: (tx: Transaction) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    const tx = new PgTransaction(client);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      if (tx.outbox.length > 0 && !this.relay) throw new Error('events emitted in a unit of work without an outbox');
      if (tx.outbox.length > 0) {
        // The events carry the id of the request this transaction serves, if it serves one.
        const requestId = RequestContexts.current()?.requestId ?? null;
        await client.query({
          name: INSERT_OUTBOX.name,
          text: INSERT_OUTBOX.text,
          values: [tx.outbox.map((m) => m.topic), tx.outbox.map((m) => m.key), tx.outbox.map((m) => JSON.stringify(m.payload)), requestId],
        });
      }
      await client.query('COMMIT');
      if (tx.outbox.length > 0) this.relay?.wake();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      // A connection whose ROLLBACK failed is in an unknown state: the pool drops it.
      client.release(broken);
    }
  }
}

/** True for PostgreSQL's unique_violation, optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
