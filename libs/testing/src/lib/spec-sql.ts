import type { QueryResultRow } from 'pg';

/**
 * What the helpers below run SQL on: the spec's own `Database` (@partner/db's Queryable, structurally:
 * libs/db's specs use this lib, so this lib cannot import that one), the API the repositories use.
 */
interface Queryable {
  query<R extends QueryResultRow>(sql: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * How integration specs read rows back (ADR 0021: one database API, pg, for the apps and their specs).
 * Columns come back as pg gives them to production code: named as the table names them, bigint and
 * numeric as strings, timestamptz as Date, jsonb parsed. Specs seed and change rows with `db.query` itself.
 */
export async function selectRows<R extends QueryResultRow = QueryResultRow>(
  db: Queryable,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  return (await db.query<R>(sql, values)).rows;
}

/** The one row `sql` answers; throws when it answers none, or more than one. */
export async function selectRow<R extends QueryResultRow = QueryResultRow>(db: Queryable, sql: string, values: unknown[] = []): Promise<R> {
  const rows = await selectRows<R>(db, sql, values);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${sql}`);
  return rows[0];
}

/** What a `SELECT count(*) ...` answers, as a number. */
export async function selectCount(db: Queryable, sql: string, values: unknown[] = []): Promise<number> {
  return Number((await selectRow<{ count: string }>(db, sql, values)).count);
}
