import { FactoryProvider, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Pool, PoolClient, QueryResultRow } from 'pg';
import { withDatabasePassword } from '@partner/config';
import { Queryable, runStatement, Statement, StatementResult } from './unit-of-work';

const logger = new Logger('PostgreSQL');

/** Where a service's pool connects, and how long a query may wait for a connection (CommonConfig has both). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_ACQUIRE_TIMEOUT_MS: number;
  /** Set into the URL when given (a password read from a file, DATABASE_PASSWORD_FILE); the URL's own otherwise. */
  DATABASE_PASSWORD?: string;
}

/**
 * A service's pg pool. Each service owns one PostgreSQL schema, which `search_path` names: a service's SQL
 * names its tables unqualified (right whichever database it shares with other services); only SQL that may
 * run on another pool (the operator-key CLI's, scripts', specs') names the schema.
 */
function pgPool({ DATABASE_URL, DATABASE_ACQUIRE_TIMEOUT_MS, DATABASE_PASSWORD }: DatabaseSettings, schema: string): Pool {
  // A query that finds the pool's 10 connections busy waits for one at most the acquire timeout, then fails
  // (`timeout exceeded when trying to connect`), which the gateway answers 503 with Retry-After: an
  // exhausted pool (a flood, a slow database) sheds load instead of queueing requests without end.
  const pool = new Pool({
    connectionString: withDatabasePassword(DATABASE_URL, DATABASE_PASSWORD),
    max: 10,
    connectionTimeoutMillis: DATABASE_ACQUIRE_TIMEOUT_MS,
    options: `-c search_path=${schema}`,
  });
  // When the server drops connections (a restart, pg_terminate_backend), a client can emit 'error' while
  // nothing listens: pg-pool's query() listens only `once` (and Prisma's adapter, when the apps ran on it,
  // removed its transaction listener on rollback). An unheard 'error' event kills the process (found by npm run chaos). A listener
  // for the client's whole life keeps the service up; the query in flight still fails, and the pool
  // discards the broken client by itself.
  pool.on('connect', (client) => client.on('error', (error: Error) => logger.warn(`connection lost: ${error.message}`)));
  // pg-pool also re-emits an idle client's error on the pool itself; nothing else listens there once the
  // hot paths use the pool directly (Prisma's adapter only did while it held connections), so without
  // this listener a database restart crashed the process (found by the short chaos run).
  pool.on('error', (error: Error) => logger.warn(`idle connection lost: ${error.message}`));
  return pool;
}

/**
 * A service's database: the pg pool on its own schema (ADR 0021: every query is a statement on the pg
 * driver, no ORM at run time). Statements run through `query`, the one way to run one here (a unit of
 * work's transaction offers the same method); units of work take their connections from `connect`. Nest
 * closes the pool after the Kafka consumers have closed (they close between the destroy and shutdown hooks).
 */
export class Database implements Queryable, OnApplicationShutdown {
  /** The pg pool itself: for its counters (metrics, specs), never for statements (`query`). */
  readonly pool: Pool;

  constructor(
    settings: DatabaseSettings,
    /** The PostgreSQL schema its connections' search_path names. */
    readonly schema: string,
  ) {
    this.pool = pgPool(settings, schema);
  }

  /** Runs a statement (prepared when it is a `Statement`, once per connection) on a pooled connection. */
  query<R extends QueryResultRow = QueryResultRow>(statement: Statement | string, values?: unknown[]): Promise<StatementResult<R>> {
    return runStatement<R>(this.pool, statement, values);
  }

  /** A connection of its own, for a transaction (UnitOfWork); released by the caller. */
  connect(): Promise<PoolClient> {
    return this.pool.connect();
  }

  /** Closes the pool: its connections end once their queries are done. */
  close(): Promise<void> {
    return this.pool.end();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** A service's config class, as a Nest token: what its database's settings come from. */
type SettingsClass = abstract new (...args: never[]) => DatabaseSettings;

/** A service's `Database` as a Nest provider: connected per its config, on its own schema. */
export function databaseProvider(config: SettingsClass, schema: string): FactoryProvider<Database> {
  return { provide: Database, inject: [config], useFactory: (settings: DatabaseSettings) => new Database(settings, schema) };
}
