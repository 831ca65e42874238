import { Client } from 'pg';

/**
 * What the services see of a PostgreSQL restart, without restarting a server that other work on this
 * machine shares: every connection to the stack's database terminated, again and again for `ms`.
 * Answers how many connections were terminated.
 */
export async function databaseOutage(databaseUrl: string, ms: number): Promise<number> {
  const admin = new URL(databaseUrl);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  let terminated = 0;
  try {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const res = await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      terminated += res.rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
  return terminated;
}
