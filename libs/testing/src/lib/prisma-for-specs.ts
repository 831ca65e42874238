import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';

/**
 * A service's Prisma client for its integration specs, and for nothing else (ADR 0021: no app loads
 * Prisma Client). `Client` is the spec-only client `npm test` generates from prisma/<service>/schema.prisma
 * into apps/<service>/src/generated/prisma-for-specs (git-ignored; `npm run db:generate` makes it by hand).
 * It runs on `db`'s own pool, on its schema: the spec closes `db` after `$disconnect()`.
 */
export function prismaForSpecs<T>(
  Client: new (options: { adapter: PrismaPg }) => T,
  db: { readonly pool: Pool; readonly schema: string },
): T {
  return new Client({ adapter: new PrismaPg(db.pool, { schema: db.schema }) });
}
