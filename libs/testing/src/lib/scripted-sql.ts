import type { QueryConfig, QueryResultRow } from 'pg';

/**
 * A database connection for unit specs: it answers each statement with the next rows of its script (none
 * once the script runs out; `failure` instead, when set) and records every statement it was sent, and how
 * it was handed back. It has the shape of @partner/db's Queryable and PooledConnection (structurally:
 * this lib does not depend on that one). The rows' type is the caller's, taken on trust as pg itself
 * takes it; the SQL is proven against PostgreSQL in the *.int.spec.ts.
 */
export class ScriptedConnection {
  readonly sent: QueryConfig[] = [];
  /** What each `release` was given: undefined (back to the pool), or the error that retires the connection. */
  readonly released: Array<Error | undefined> = [];
  failure?: Error;

  constructor(private readonly script: QueryResultRow[][] = []) {}

  async query<R extends QueryResultRow = QueryResultRow>(
    statement: string | QueryConfig,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number }> {
    this.sent.push(
      typeof statement === 'string' || values !== undefined
        ? { ...(typeof statement === 'string' ? { text: statement } : statement), values }
        : statement,
    );
    if (this.failure) throw this.failure;
    const rows = (this.script.shift() ?? []) as R[];
    return { rows, rowCount: rows.length };
  }

  release(error?: Error): void {
    this.released.push(error);
  }
}
