import { Logger } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';

const logger = new Logger('PostgreSQL');

/**
 * The driver adapter every service's Prisma client runs on (no native engine here). Each service owns one
 * PostgreSQL schema: `schema` qualifies Prisma's own queries, `search_path` makes raw SQL land there too.
 */
export function pgAdapter(databaseUrl: string, schema: string, maxConnections = 10): PrismaPg {
  const pool = new Pool({ connectionString: databaseUrl, max: maxConnections, options: `-c search_path=${schema}` });
  // When the server drops connections (a restart, pg_terminate_backend), a client can emit 'error' while
  // nothing listens: pg-pool's query() listens only `once`, and the adapter removes its transaction
  // listener on rollback. An unheard 'error' event kills the process (found by npm run chaos). A listener
  // for the client's whole life keeps the service up; the query in flight still fails, and the pool
  // discards the broken client by itself.
  pool.on('connect', (client) => client.on('error', (error: Error) => logger.warn(`connection lost: ${error.message}`)));
  return new PrismaPg(pool, { schema, disposeExternalPool: true });
}
