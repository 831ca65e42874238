import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';

const logger = new Logger('PostgreSQL');

/**
 * The driver adapter every service's Prisma client runs on (no native engine here). Each service owns one
 * PostgreSQL schema: `schema` qualifies Prisma's own queries, `search_path` makes raw SQL land there too.
 */
function pgAdapter(databaseUrl: string, schema: string): PrismaPg {
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema}` });
  // When the server drops connections (a restart, pg_terminate_backend), a client can emit 'error' while
  // nothing listens: pg-pool's query() listens only `once`, and the adapter removes its transaction
  // listener on rollback. An unheard 'error' event kills the process (found by npm run chaos). A listener
  // for the client's whole life keeps the service up; the query in flight still fails, and the pool
  // discards the broken client by itself.
  pool.on('connect', (client) => client.on('error', (error: Error) => logger.warn(`connection lost: ${error.message}`)));
  return new PrismaPg(pool, { schema, disposeExternalPool: true });
}

type PrismaClientClass<T> = new (options: { adapter: PrismaPg }) => T;

/**
 * The base of every service's PrismaService: its own generated client, connected to its own schema
 * through `pgAdapter`, disconnected after the Kafka consumers have closed (Nest closes them between the
 * destroy and shutdown hooks). The service's subclass passes the database URL from its config.
 */
export function schemaPrismaClient<T extends { $disconnect(): Promise<void> }>(Client: PrismaClientClass<T>, schema: string) {
  const Base = Client as PrismaClientClass<{ $disconnect(): Promise<void> }>;
  abstract class SchemaPrismaClient extends Base implements OnApplicationShutdown {
    constructor(databaseUrl: string) {
      super({ adapter: pgAdapter(databaseUrl, schema) });
    }

    async onApplicationShutdown(): Promise<void> {
      await this.$disconnect();
    }
  }
  // The generated client's own members (its models, $transaction...) on the instances, not only $disconnect.
  return SchemaPrismaClient as unknown as abstract new (databaseUrl: string) => T & OnApplicationShutdown;
}
