import { PrismaPg } from '@prisma/adapter-pg';

/**
 * The driver adapter every service's Prisma client runs on (no native engine here). Each service owns one
 * PostgreSQL schema: `schema` qualifies Prisma's own queries, `search_path` makes raw SQL land there too.
 */
export function pgAdapter(databaseUrl: string, schema: string, maxConnections = 10): PrismaPg {
  return new PrismaPg({ connectionString: databaseUrl, max: maxConnections, options: `-c search_path=${schema}` }, { schema });
}
