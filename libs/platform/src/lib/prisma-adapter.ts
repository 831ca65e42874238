import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';

const logger = new Logger('PostgreSQL');

/**
 * The pool under the driver adapter every service's Prisma client runs on (no native engine here). Each service owns one
 * PostgreSQL schema: `schema` qualifies Prisma's own queries, `search_path` makes raw SQL land there too.
 * So a service's SQL names its tables unqualified (right whichever database it shares with other services);
 * only SQL that may run on another pool (the operator-key CLI's, scripts', specs') names the schema.
 */
/** Where a service's pool connects, and how long a query may wait for a connection (CommonConfig has both). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_ACQUIRE_TIMEOUT_MS: number;
}

function pgPool({ DATABASE_URL, DATABASE_ACQUIRE_TIMEOUT_MS }: DatabaseSettings, schema: string): Pool {
  // A query that finds the pool's 10 connections busy waits for one at most the acquire timeout, then fails
  // (`timeout exceeded when trying to connect`), which the gateway answers 503 with Retry-After: an
  // exhausted pool (a flood, a slow database) sheds load instead of queueing requests without end.
  const pool = new Pool({ connectionString: DATABASE_URL, max: 10, connectionTimeoutMillis: DATABASE_ACQUIRE_TIMEOUT_MS, options: `-c search_path=${schema}` });
  // When the server drops connections (a restart, pg_terminate_backend), a client can emit 'error' while
  // nothing listens: pg-pool's query() listens only `once`, and the adapter removes its transaction
  // listener on rollback. An unheard 'error' event kills the process (found by npm run chaos). A listener
  // for the client's whole life keeps the service up; the query in flight still fails, and the pool
  // discards the broken client by itself.
  pool.on('connect', (client) => client.on('error', (error: Error) => logger.warn(`connection lost: ${error.message}`)));
  // pg-pool also re-emits an idle client's error on the pool itself; nothing else listens there once the
  // hot paths use the pool directly (Prisma's adapter only did while it held connections), so without
  // this listener a database restart crashed the process (found by the short chaos run).
  pool.on('error', (error: Error) => logger.warn(`idle connection lost: ${error.message}`));
  return pool;
}

type PrismaClientClass<T> = new (options: { adapter: PrismaPg }) => T;

/** What a service's PrismaService offers besides its generated client. */
export interface SchemaPrismaExtras extends OnApplicationShutdown {
  /**
   * The pool Prisma itself runs on (search_path set to the schema), for the few hot queries where
   * Prisma's own per-query work costs more than PostgreSQL's (measured on the events feed: 0.95 ms per
   * `$queryRaw` against 0.25 ms for the same statement through pg). Closed with the client.
   */
  readonly pool: Pool;
}

/**
 * The base of every service's PrismaService: its own generated client, connected to its own schema
 * through `pgAdapter`, disconnected after the Kafka consumers have closed (Nest closes them between the
 * destroy and shutdown hooks). The service's subclass passes its config (the database URL, the acquire timeout).
 */
export function schemaPrismaClient<T extends { $disconnect(): Promise<void> }>(Client: PrismaClientClass<T>, schema: string) {
  const Base = Client as PrismaClientClass<{ $disconnect(): Promise<void> }>;
  abstract class SchemaPrismaClient extends Base implements OnApplicationShutdown {
    readonly pool: Pool;

    constructor(database: DatabaseSettings) {
      const pool = pgPool(database, schema);
      super({ adapter: new PrismaPg(pool, { schema, disposeExternalPool: true }) });
      this.pool = pool;
    }

    async onApplicationShutdown(): Promise<void> {
      await this.$disconnect();
    }
  }
  // The generated client's own members (its models, $transaction...) on the instances, not only $disconnect.
  return SchemaPrismaClient as unknown as abstract new (database: DatabaseSettings) => T & SchemaPrismaExtras;
}
