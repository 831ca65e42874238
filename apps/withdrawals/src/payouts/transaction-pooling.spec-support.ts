import { Database } from '@partner/db';
import { PoolClient, QueryResultRow } from 'pg';

type Query = PoolClient['query'];

/**
 * The test database as a service sees it behind PgBouncer in transaction pooling: a transaction (BEGIN to
 * COMMIT/ROLLBACK) keeps one server connection; every statement outside one goes to whichever server
 * connection is next (round robin over `servers`), even on a connection the service checked out for
 * itself. A session's state (an advisory lock, SET) stays on the server connection it was made on.
 */
export async function transactionPooled(db: Database, servers = 3): Promise<Database & { end(): void }> {
  const backends = await Promise.all(Array.from({ length: servers }, () => db.connect()));
  let next = 0;
  const anyServer = () => backends[next++ % backends.length];
  const sqlOf = (statement: unknown) => (typeof statement === 'string' ? statement : ((statement as { text?: string }).text ?? ''));
  const session = () => {
    let pinned: PoolClient | undefined;
    const query = (async (statement: unknown, values?: unknown[]) => {
      const sql = sqlOf(statement).trim().toUpperCase();
      if (!pinned && sql.startsWith('BEGIN')) pinned = await db.connect();
      const server = pinned ?? anyServer();
      try {
        return await (server.query as (s: unknown, v?: unknown[]) => Promise<unknown>)(statement, values);
      } finally {
        if (pinned && (sql.startsWith('COMMIT') || sql.startsWith('ROLLBACK'))) {
          pinned.release();
          pinned = undefined;
        }
      }
    }) as Query;
    // A client of its own to the service; what it runs goes where the pooler sends it.
    return Object.assign(Object.create(backends[0]) as PoolClient, { query, release: () => pinned?.release() });
  };
  return Object.assign(Object.create(db) as Database, {
    connect: () => Promise.resolve(session()),
    query: <R extends QueryResultRow>(statement: string, values?: unknown[]) =>
      (anyServer().query as (s: unknown, v?: unknown[]) => Promise<{ rows: R[]; rowCount: number | null }>)(statement, values),
    end: () => backends.forEach((b) => b.release()),
  });
}
