/**
 * `npx nx run <project>:integration [-- jest args]`: the project's *.int.spec.ts against the test broker and
 * database (`npm run test:infra`; KAFKA_BROKERS, DATABASE_URL elsewhere); fails at once, with what to do,
 * when either is missing, and never runs against the dev database.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { kafkaConnectionFromEnv, probeBroker } from '@partner/kafka';
import { busAdminEnv } from '../stack/stack';
import { repoRoot, TEST_DATABASE_URL, TEST_KAFKA_PORT } from '../lib/services';
import { runMain } from '../lib/main';

const HINT = 'start them with `npm run test:infra` (`npm test` runs every suite with its own)';

/** Why the database cannot serve the specs, or undefined when it can (reachable and migrated). */
async function databaseProblem(databaseUrl: string): Promise<string | undefined> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name = 'withdrawals'",
    );
    return rows[0].n === '0' ? `the database ${databaseUrl} is not migrated` : undefined;
  } catch (error) {
    return `the database ${databaseUrl} is not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const [projectRoot, ...jestArgs] = process.argv.slice(2).filter((a) => a !== '--');
  if (!projectRoot) throw new Error('usage: integration.ts <project root> [jest arguments]');
  const brokers = process.env.KAFKA_BROKERS ?? `127.0.0.1:${TEST_KAFKA_PORT}`;
  // The test broker's super user (npm run test:infra), unless another broker and its credentials are given.
  const sasl = process.env.KAFKA_BROKERS ? {} : busAdminEnv(TEST_KAFKA_PORT);
  const databaseUrl = process.env.DATABASE_URL ?? TEST_DATABASE_URL;

  const problems: string[] = [];
  if (new URL(databaseUrl).pathname.slice(1) === 'partner')
    problems.push('DATABASE_URL names the dev database `partner`; integration specs use the test database');
  else {
    const problem = await databaseProblem(databaseUrl);
    if (problem) problems.push(problem);
  }
  // The readiness probe the gateway uses: one metadata request, no retries.
  const brokerUp = await probeBroker(
    kafkaConnectionFromEnv(`integration-check-${process.pid}`, { ...process.env, KAFKA_BROKERS: brokers, ...sasl }),
  ).then(
    () => true,
    () => false,
  );
  if (!brokerUp) problems.push(`no Kafka broker on ${brokers}`);
  if (problems.length > 0) {
    console.error(`${projectRoot}: integration specs not run: ${problems.join('; ')}.\nThey need the test broker and database: ${HINT}.`);
    return 1;
  }

  const root = repoRoot();
  const run = spawnSync(
    join(root, 'node_modules/.bin/jest'),
    ['-c', join(root, projectRoot, 'jest.config.js'), '--runInBand', ...jestArgs],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        JEST_SUITE: 'integration',
        KAFKA_BROKERS: brokers,
        ...sasl,
        DATABASE_URL: databaseUrl,
        // The gateway's specs boot it, and it requires an operator key.
        ADMIN_API_KEY: process.env.ADMIN_API_KEY ?? `adm_test_${randomBytes(18).toString('base64url')}`,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      },
    },
  );
  return run.status ?? 1;
}

runMain('integration', main);
