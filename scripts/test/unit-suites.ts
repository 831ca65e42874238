/**
 * One check of `npm test`: `npx nx run-many -t test` passes with no infrastructure and leaves the dev database
 * alone (jest.setup.js points unit specs at a closed port): every row of that database (migrated first)
 * counted before and after. With other clients on it (a dev stack), the rows are not compared.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { CommonConfig } from '@partner/config';
import { migrate } from '../stack/stack';

/** The DATABASE_URL default of every app (CommonConfig): where a spec would fall back to. */
const DEV_DATABASE_URL = process.env.DEV_DATABASE_URL ?? new CommonConfig().DATABASE_URL;

/** Rows per table of every schema but PostgreSQL's own, and how many other clients are connected. */
async function snapshot(databaseUrl: string): Promise<{ rows: Record<string, number>; otherClients: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    );
    const rows: Record<string, number> = {};
    for (const { name } of tables) rows[name] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}`)).rows[0].n);
    const { rows: others } = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return { rows, otherClients: Number(others[0].n) };
  } finally {
    await client.end();
  }
}

export async function unitSuitesTouchNothing(root: string): Promise<{ passed: number; failed: number }> {
  const label = 'nx run-many -t test (unit specs, no infrastructure; the dev database untouched)';
  migrate(DEV_DATABASE_URL);
  const before = await snapshot(DEV_DATABASE_URL);
  // No daemon, no Nx Cloud: nx.json says so.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'JEST_SUITE']) delete env[name];
  const run = spawnSync(join(root, 'node_modules/.bin/nx'), ['run-many', '-t', 'test', '--skip-nx-cache', '--outputStyle=static'], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  const after = await snapshot(DEV_DATABASE_URL);

  const changed = Object.keys({ ...before.rows, ...after.rows }).filter((t) => before.rows[t] !== after.rows[t]);
  const comparable = before.otherClients === 0 && after.otherClients === 0;
  const problems: string[] = [];
  if (run.status !== 0) problems.push(`nx run-many -t test exited with ${run.status}`);
  if (comparable && changed.length > 0) {
    problems.push(
      `rows of the dev database changed: ${changed.map((t) => `${t} ${before.rows[t] ?? 0} -> ${after.rows[t] ?? 0}`).join(', ')}`,
    );
  }
  if (!comparable)
    console.log(`${label}: other clients use ${new URL(DEV_DATABASE_URL).pathname.slice(1)} (a dev stack?), so its rows were not compared`);
  console.log(`${label}: ${problems.length === 0 ? 'passed' : `FAILED (${problems.join('; ')})`}`);
  return problems.length === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}
