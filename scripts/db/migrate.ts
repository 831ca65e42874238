/**
 * `npm run db:migrate [-- service...]` (DATABASE_URL): each service's migrations on its own schema, offline,
 * as `prisma migrate deploy` would; with DB_PASSWORD_<SCHEMA>, that service's role svc_<schema>, allowed its
 * own schema's rows only (ADR 0010). docs/database-migrations.md. `npm start` calls `migrateDatabase` in-process.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { withDatabasePassword, withSettingFiles } from '@partner/config';
import {
  databaseName,
  databaseUrl,
  errorMessage,
  listServices,
  noFilter,
  onMaintenanceDb,
  openEngine,
  readMigrations,
  repoRoot,
  runSql,
} from '../../offline/prisma/schema-engine';
import { pgSchemaOf } from '../lib/services';
import { runMain } from '../lib/main';

async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const found = await onMaintenanceDb(url, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount) return;
  try {
    await onMaintenanceDb(url, `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    console.log(`created database ${name}`);
  } catch (err) {
    // 42P04 duplicate_database: another process created it in the meantime.
    if ((err as { code?: string }).code !== '42P04') throw err;
  }
}

/**
 * Whether every migration folder is applied with its file's checksum (SHA-256 of migration.sql, as `migrate
 * deploy` records it) and nothing else is recorded (a failed or unknown one is the engine's to report).
 * Then the engine's WebAssembly, most of a run's time, is not even loaded.
 */
async function appliedAlready(client: Client, service: string): Promise<boolean> {
  const dir = path.join(repoRoot, 'prisma', service, 'migrations');
  try {
    const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    const local = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${d.name} ${sha256(path.join(dir, d.name, 'migration.sql'))}`);
    const { rows } = await client.query<{ entry: string; finished: boolean }>(
      `SELECT migration_name || ' ' || checksum AS entry, finished_at IS NOT NULL AS finished
         FROM "${pgSchemaOf(service)}"._prisma_migrations WHERE rolled_back_at IS NULL`,
    );
    const applied = rows.map((r) => r.entry);
    return rows.every((r) => r.finished) && applied.length === local.length && local.every((entry) => applied.includes(entry));
  } catch {
    return false;
  }
}

async function migrate(service: string, url: string): Promise<void> {
  const started = Date.now();
  const svc = await openEngine(service, pgSchemaOf(service), url);
  try {
    // The engine would too; here it depends on no engine internals.
    await runSql(url, `CREATE SCHEMA IF NOT EXISTS "${svc.pgSchema}"`).catch((err) => {
      // 23505/42P06: created concurrently by another process.
      if (!['23505', '42P06'].includes((err as { code?: string }).code ?? '')) throw err;
    });
    if (!existsSync(svc.migrationsDir)) {
      console.log(`${service}: no migrations folder (${path.relative(repoRoot, svc.migrationsDir)}), nothing to apply`);
      return;
    }
    const migrationsList = readMigrations(svc.migrationsDir);
    const { appliedMigrationNames } = await svc.engine.applyMigrations({ migrationsList, filters: noFilter });
    // Like `migrate deploy`, applying ignores edits to applied migrations: say so.
    const { editedMigrationNames } = await svc.engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: noFilter,
    });
    if (editedMigrationNames.length) {
      console.warn(`${service}: WARNING applied migrations edited since (checksum differs): ${editedMigrationNames.join(', ')}`);
    }
    const took = `${Date.now() - started} ms`;
    console.log(
      appliedMigrationNames.length === 0
        ? `${service}: schema "${svc.pgSchema}" is up to date (${took})`
        : `${service}: applied ${appliedMigrationNames.join(', ')} to schema "${svc.pgSchema}" (${took})`,
    );
  } finally {
    await svc.close();
  }
}

/**
 * What a service's role may not do to its own tables, although it writes the rest of its schema: the records
 * no application may rewrite (an audit row, a decided approval). Their triggers refuse it too; without the
 * privilege the role cannot even try, nor TRUNCATE (which row triggers do not see).
 */
const WITHHELD: Record<string, string[]> = {
  gateway: ['REVOKE UPDATE, DELETE, TRUNCATE ON "gateway"."audit_log"', 'REVOKE DELETE, TRUNCATE ON "gateway"."approvals"'],
  withdrawals: ['REVOKE UPDATE, DELETE, TRUNCATE ON "withdrawals"."audit_log"'],
};

/** Creates (or re-keys) the service's role svc_<schema>, granted its schema's rows, now and after later migrations. Idempotent. */
async function grantServiceRole(service: string, url: string, password: string): Promise<void> {
  const schema = pgSchemaOf(service);
  const role = `svc_${schema}`;
  const literal = `'${password.replace(/'/g, "''")}'`;
  await runSql(
    url,
    `DO $$ BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE "${role}"; END IF;
     EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; -- created concurrently
     END $$;
     ALTER ROLE "${role}" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD ${literal};
     GRANT CONNECT, TEMPORARY ON DATABASE "${databaseName(url).replace(/"/g, '""')}" TO "${role}";
     GRANT USAGE ON SCHEMA "${schema}" TO "${role}";
     GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO "${role}";
     GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}";
     GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA "${schema}" TO "${role}";
     ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "${role}";
     ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO "${role}";
     ${(WITHHELD[schema] ?? []).map((revoke) => `${revoke} FROM "${role}";`).join('\n     ')}`,
  );
  console.log(`${service}: role ${role} may use schema "${schema}" only`);
}

export interface MigrateOptions {
  /** Services to migrate: every one by default. */
  services?: string[];
  /** Each service's role password by PostgreSQL schema (DB_PASSWORD_<SCHEMA> without the prefix, lower case). */
  passwords?: Record<string, string>;
}

/** The services named on a command line, each one checked, or every service (prisma/<service>/) when none is. */
export function servicesOrAll(named: string[]): string[] {
  const known = listServices();
  const unknown = named.find((s) => !known.includes(s));
  if (unknown) throw new Error(`Unknown service "${unknown}" (known: ${known.join(', ') || 'none'})`);
  if (known.length === 0) throw new Error(`No prisma/<service>/schema.prisma under ${repoRoot}`);
  return named.length ? named : known;
}

/** Creates the database when missing, applies what is pending and sets up the roles. Returns what it did, one word. */
export async function migrateDatabase(url: string, o: MigrateOptions = {}): Promise<'up to date' | 'applied'> {
  const targets = servicesOrAll(o.services ?? []);
  targets.forEach(pgSchemaOf); // a service without a schema fails before anything runs

  await ensureDatabase(url).catch((err) => {
    throw new Error(`Cannot reach or create database "${databaseName(url)}": ${errorMessage(err)}`);
  });
  const client = new Client({ connectionString: url });
  await client.connect();
  let engineRuns = 0;
  try {
    for (const service of targets) {
      if (await appliedAlready(client, service)) console.log(`${service}: schema "${pgSchemaOf(service)}" is up to date`);
      else {
        engineRuns++;
        await migrate(service, url).catch((err) => {
          throw new Error(`${service}: migration failed: ${errorMessage(err)}`);
        });
      }
      const password = o.passwords?.[pgSchemaOf(service)];
      if (password) {
        await grantServiceRole(service, url, password).catch((err) => {
          throw new Error(`${service}: role setup failed: ${errorMessage(err)}`);
        });
      }
    }
  } finally {
    await client.end();
  }
  return engineRuns === 0 ? 'up to date' : 'applied';
}

if (require.main === module) {
  // DB_PASSWORD_<SCHEMA> of the environment (or of the file DB_PASSWORD_<SCHEMA>_FILE names), by schema; the
  // owner's password from DATABASE_PASSWORD(_FILE) when the URL carries none (Compose's secrets).
  const roleVariables = listServices().map((service) => `DB_PASSWORD_${pgSchemaOf(service).toUpperCase()}`);
  const env = withSettingFiles(['DATABASE_PASSWORD', ...roleVariables], process.env);
  const passwords = Object.fromEntries(
    Object.entries(env)
      .filter(([name, value]) => name.startsWith('DB_PASSWORD_') && !name.endsWith('_FILE') && value)
      .map(([name, value]) => [name.slice('DB_PASSWORD_'.length).toLowerCase(), value as string]),
  );
  const url = withDatabasePassword(databaseUrl(), env.DATABASE_PASSWORD);
  runMain('migrate', async () => migrateDatabase(url, { services: process.argv.slice(2), passwords }), errorMessage);
}
