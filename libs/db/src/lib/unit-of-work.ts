import type { QueryConfig, QueryResultRow } from 'pg';
import { EventTopic } from '@partner/contracts';
import { OutboxMessage } from './outbox-message';

/** A SQL statement prepared once per connection (the server keeps its plan): a name and its text. */
export interface Statement {
  name: string;
  text: string;
}

/** Declares a prepared statement; `name` must be unique in the service. */
export const statement = (name: string, text: string): Statement => ({ name, text });

/** What a statement answered: its rows, and how many rows it touched (an UPDATE's, a DELETE's). */
export interface StatementResult<R> {
  rows: R[];
  rowCount: number | null;
}

/**
 * Anything a statement runs on: a service's `Database`, a unit of work's `Transaction`. The one way
 * every repository, library and script here runs SQL.
 */
export interface Queryable {
  /** Runs `statement` (prepared by its name when it is a `Statement`, plain text otherwise) with `values`. */
  query<R extends QueryResultRow = QueryResultRow>(statement: Statement | string, values?: unknown[]): Promise<StatementResult<R>>;
}

/**
 * What pg itself offers to run a statement on: a pool, a pooled connection. The one part of pg's
 * overloaded query API `runStatement` uses, so a spec's stand-in implements it without a cast.
 */
export interface PgQueryable {
  query<R extends QueryResultRow = QueryResultRow>(
    statement: string | QueryConfig,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount?: number | null }>;
}

/**
 * Runs a statement on pg: a `Statement` as a named (prepared) one, a string as plain text. Builds the query
 * afresh each time: pg writes the values onto the config object it is given, never on a shared statement.
 */
export async function runStatement<R extends QueryResultRow>(
  on: PgQueryable,
  s: Statement | string,
  values?: unknown[],
): Promise<StatementResult<R>> {
  const { rows, rowCount } =
    typeof s === 'string' ? await on.query<R>(s, values) : await on.query<R>({ name: s.name, text: s.text, values });
  return { rows, rowCount: rowCount ?? null };
}

/** What a use case does inside a unit of work: statements on one connection, and events to report. */
export interface Transaction extends Queryable {
  /** Records an event to publish; it is written to the outbox in this transaction, just before COMMIT. */
  emit<T extends EventTopic>(message: OutboxMessage<T>): void;
}

// request_id: the request that caused the events (docs/architecture.md: "Request context"), null for timers' moves;
// traceparent: the trace the events continue when the relay publishes them (docs/operations/observability.md: "Tracing").
const INSERT_OUTBOX = statement(
  'outbox_insert',
  'INSERT INTO outbox_messages (topic, key, payload, request_id, traceparent) SELECT t, k, p, $4::text, $5::text FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS u(t, k, p)',
);

/**
 * A command written as ONE SQL statement that also writes the outbox rows reporting it (see
 * `commandStatement`). Run by `UnitOfWork.runCommand` in autocommit: a single statement is its own
 * transaction, so the change and its events commit together or not at all, in one round trip instead of
 * four (BEGIN, the statement, the outbox insert, COMMIT).
 */
export interface CommandStatement<T extends EventTopic = EventTopic> extends Statement {
  /** How many parameters the use case passes ($1..$n); the topic, request id and traceparent are appended as $n+1..$n+3. */
  params: number;
  topic: T;
}

/** What a one-statement command declares; `commandStatement` adds the outbox insert and its count. */
export interface CommandStatementSpec<T extends EventTopic> {
  name: string;
  params: number;
  /** The command's CTEs, without the leading WITH. */
  with: string;
  /** The events: one outbox row per row of the CTE `from`, with `key` and `payload` as SQL expressions over it. */
  events: { topic: T; from: string; key: string; payload: string };
  /** What the statement answers: a SELECT over the CTEs (its columns plus `outbox_rows`). */
  select: string;
}

/** Column every command statement adds to its answer: how many outbox rows it wrote. */
const OUTBOX_ROWS = 'outbox_rows';

export function commandStatement<T extends EventTopic>(spec: CommandStatementSpec<T>): CommandStatement<T> {
  const topic = `$${spec.params + 1}::text`;
  const requestId = `$${spec.params + 2}::text`;
  const traceparent = `$${spec.params + 3}::text`;
  const text = `WITH ${spec.with},
   outbox AS (
     INSERT INTO outbox_messages (topic, key, payload, request_id, traceparent)
     SELECT ${topic}, ${spec.events.key}, ${spec.events.payload}, ${requestId}, ${traceparent} FROM ${spec.events.from}
     RETURNING 1)
   SELECT answer.*, (SELECT count(*)::int FROM outbox) AS ${OUTBOX_ROWS} FROM (${spec.select}) AS answer`;
  return { name: spec.name, text, params: spec.params, topic: spec.events.topic };
}

/** A connection checked out of a pool: statements, then handing it back (an error retires it). */
export interface PooledConnection extends PgQueryable {
  release(error?: Error): void;
}

/** Where a unit of work takes its connections: the service's `Database` (never its `query`, see runCommand). */
export interface ConnectionPool {
  connect(): Promise<PooledConnection>;
}

/** Something to wake once events were committed: the service's outbox relay. */
export interface Wakeable {
  wake(): void;
}

/**
 * Where the events a unit of work writes come from, stored beside them: the request they serve
 * (docs/architecture.md: "Request context") and the trace they continue (docs/operations/observability.md: "Tracing").
 */
export interface EventOrigin {
  requestId: string | null;
  traceparent: string | null;
}

/** The origin of events written outside any request or trace. */
export const NO_EVENT_ORIGIN = (): EventOrigin => ({ requestId: null, traceparent: null });

class PgTransaction implements Transaction {
  readonly outbox: OutboxMessage[] = [];
  constructor(private readonly client: PooledConnection) {}

  query<R extends QueryResultRow = QueryResultRow>(s: Statement | string, values?: unknown[]): Promise<StatementResult<R>> {
    return runStatement<R>(this.client, s, values);
  }

  emit<T extends EventTopic>(message: OutboxMessage<T>): void {
    this.outbox.push(message);
  }
}

/**
 * Runs a command's transaction on the pg driver directly, in as few round trips as it needs: BEGIN, the
 * use case's own statements (prepared, so parsed and planned once per connection), one multi-row
 * INSERT of every event it emitted, COMMIT. Then it wakes the outbox relay, so the events leave at once
 * and no use case ever calls the relay itself. Either everything commits (the change and the events
 * reporting it) or nothing does.
 *
 * Every command runs here (ADR 0007, ADR 0021): the profile showed an ORM's per-query work as the largest
 * single cost on the paths that run per request or per event.
 */
export class UnitOfWork {
  /**
   * `relay` may be left out by a service without an outbox (the events projector); it then may not emit.
   * `origin` says which request and trace the events of the current call come from (libs/kafka's
   * `eventOrigin` reads them from the request context; none by default).
   */
  constructor(
    private readonly pool: ConnectionPool,
    private readonly relay?: Wakeable,
    private readonly origin: () => EventOrigin = NO_EVENT_ORIGIN,
  ) {}

  /**
   * Runs a one-statement command (`commandStatement`) as its own transaction, in one round trip, and
   * wakes the relay if it wrote events. For the hot paths whose whole change fits one statement: the
   * transaction holds its row locks for that statement only, not for four round trips.
   */
  async runCommand<R extends QueryResultRow>(command: CommandStatement, values: unknown[]): Promise<Array<R & { outbox_rows: number }>> {
    if (values.length !== command.params) throw new Error(`${command.name} takes ${command.params} parameters, got ${values.length}`);
    if (!this.relay) throw new Error('a command statement writes events: this unit of work has no outbox');
    const { requestId, traceparent } = this.origin();
    // Not pool.query: on any error it drops the connection, and a command's refusal is an SQL error
    // (refuse(), a constraint) on a healthy connection. Dropping it cost a new connection, a backend
    // and its prepared statements for every refused withdrawal: 22 refusals/s on one balance with the
    // machine idle. A statement error leaves the connection usable (autocommit: it rolled back); only
    // an error without a SQLSTATE (the connection itself) retires it.
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<R & { outbox_rows: number }>({
        name: command.name,
        text: command.text,
        values: [...values, command.topic, requestId, traceparent],
      });
      if (rows.some((r) => r[OUTBOX_ROWS] > 0)) this.relay.wake();
      return rows;
    } catch (error) {
      if (typeof (error as { code?: unknown }).code !== 'string') broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async run<R>(work: (tx: Transaction) => Promise<R>): Promise<R> {
    return this.transaction('BEGIN', work);
  }

  /**
   * Runs reads that must all see one moment (a view built from two tables, each changed by another
   * transaction in between): one REPEATABLE READ, READ ONLY transaction, so no read sees a commit another missed.
   */
  async snapshot<R>(read: (tx: Queryable) => Promise<R>): Promise<R> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', read);
  }

  private async transaction<R>(begin: string, work: (tx: Transaction) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    const tx = new PgTransaction(client);
    let broken: Error | undefined;
    try {
      await client.query(begin);
      const result = await work(tx);
      if (tx.outbox.length > 0 && !this.relay) throw new Error('events emitted in a unit of work without an outbox');
      if (tx.outbox.length > 0) {
        // The events carry the id of the request this transaction serves, if it serves one.
        const { requestId, traceparent } = this.origin();
        await client.query({
          name: INSERT_OUTBOX.name,
          text: INSERT_OUTBOX.text,
          values: [
            tx.outbox.map((m) => m.topic),
            tx.outbox.map((m) => m.key),
            tx.outbox.map((m) => JSON.stringify(m.payload)),
            requestId,
            traceparent,
          ],
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

/**
 * The reason a statement refused itself with (the migrations' `refuse(reason)`: SQLSTATE P0001, hint
 * `refused`), when it is one of `reasons`; undefined for any other error. The one place a PostgreSQL
 * error is read as a domain outcome, beside violatedConstraint.
 */
export function statementRefusal<const R extends string>(error: unknown, reasons: readonly R[]): R | undefined {
  const e = error as { code?: unknown; hint?: unknown; message?: unknown } | null | undefined;
  if (e?.code !== 'P0001' || e.hint !== 'refused' || typeof e.message !== 'string') return undefined;
  return (reasons as readonly string[]).includes(e.message) ? (e.message as R) : undefined;
}

/**
 * The constraint a PostgreSQL integrity violation names (SQLSTATE class 23: unique 23505, check 23514,
 * foreign key 23503, exclusion 23P01, not null 23502), or undefined for any other error.
 */
export function violatedConstraint(error: unknown): string | undefined {
  const e = error as { code?: unknown; constraint?: unknown } | null | undefined;
  if (typeof e?.code !== 'string' || !e.code.startsWith('23') || typeof e.constraint !== 'string') return undefined;
  return e.constraint;
}

/**
 * The one mapping of constraint violations to a domain's typed answers: awaits `work`, and when it fails
 * on one of the constraints `answers` names (a unique index, a CHECK), answers what the mapping returns
 * (or throws what it throws) instead. Every other failure propagates as it was. Constraint names are
 * unique within a schema, so the name alone says which rule the request broke.
 */
export async function onConstraintViolation<T, A>(
  work: Promise<T>,
  answers: Readonly<Record<string, (error: Error) => A>>,
): Promise<T | A> {
  try {
    return await work;
  } catch (error) {
    const constraint = violatedConstraint(error);
    const answer = constraint !== undefined && Object.hasOwn(answers, constraint) ? answers[constraint] : undefined;
    if (!answer) throw error;
    return answer(error as Error);
  }
}
