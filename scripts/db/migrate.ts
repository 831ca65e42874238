/**
 * Applies each service's migrations to its own PostgreSQL schema, offline.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/partner npx tsx scripts/db/migrate.ts [service...]
 *
 * Without arguments: every service that has a prisma/<service>/ folder. Creates the database and the
 * schema when missing, then applies what `prisma migrate deploy` would apply, recording it in
 * <schema>._prisma_migrations the same way. Idempotent: a second run applies nothing.
 *
 * Per-service roles: for each service whose DB_PASSWORD_<SCHEMA> is set (DB_PASSWORD_WITHDRAWALS,
 * DB_PASSWORD_PIX_KEYS, ...), the login role svc_<schema> with that password, allowed to read and write
 * the rows of its own schema and nothing else: no other schema, no DDL (migrations run as the owner).
 * The service then connects as that role, so "no service reads another's tables" is the database's rule.
 *
 * A schema whose `_prisma_migrations` already lists every migration folder, applied with the same
 * checksum, is left alone without starting the engine (loading its WebAssembly is most of a run's time).
 * `npm start` calls `migrateDatabase` in its own process.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import {
  databaseName,
  databaseUrl,
  errorMessage,
  listServices,
  noFilter,
  onMaintenanceDb,
  openEngine,
  pgSchemaFor,
  readMigrations,
  repoRoot,
  runSql,
} from '../../offline/prisma/schema-engine';

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
 * Whether every migration folder of the service is applied, with the checksum of the file as it is now
 * (what `migrate deploy` records: the SHA-256 of migration.sql), and nothing else is recorded: no failed
 * or unknown migration, which the engine must report. Anything unexpected (no schema yet...) is a no.
 */
async function appliedAlready(client: Client, service: string): Promise<boolean> {
  const dir = path.join(repoRoot, 'prisma', service, 'migrations');
  try {
    const local = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map(
        (d) =>
          `${d.name} ${createHash('sha256')
            .update(readFileSync(path.join(dir, d.name, 'migration.sql')))
            .digest('hex')}`,
      );
    const { rows } = await client.query<{ entry: string; finished: boolean }>(
      `SELECT migration_name || ' ' || checksum AS entry, finished_at IS NOT NULL AS finished
         FROM "${pgSchemaFor(service)}"._prisma_migrations WHERE rolled_back_at IS NULL`,
    );
    const applied = rows.map((r) => r.entry);
    return rows.every((r) => r.finished) && applied.length === local.length && local.every((entry) => applied.includes(entry));
  } catch {
    return false;
  }
}

async function migrate(service: string, url: string): Promise<void> {
  const started = Date.now();
  const svc = await openEngine(service, url);
  try {
    // The engine creates a missing schema as well; doing it here keeps that from depending on
    // engine internals.
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
    // Like `migrate deploy`, applying ignores edits to already-applied migrations; say so, since the
    // database then no longer matches what the files describe.
    const { editedMigrationNames } = await svc.engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: noFilter,
    });
    if (editedMigrationNames.length) {
      console.warn(`${service}: WARNING applied migrations edited since (checksum differs): ${editedMigrationNames.join(', ')}`);
    }
    const took = `${Date.now() - started} ms`;
    if (appliedMigrationNames.length === 0) {
      console.log(`${service}: schema "${svc.pgSchema}" is up to date (${took})`);
    } else {
      console.log(`${service}: applied ${appliedMigrationNames.join(', ')} to schema "${svc.pgSchema}" (${took})`);
    }
  } finally {
    await svc.close();
  }
}

/** The role a service connects as: svc_<schema>. */
const roleFor = (schema: string): string => `svc_${schema}`;

/**
 * Creates (or updates the password of) the service's role and grants it the rows of its schema, the
 * tables and sequences that exist now and those later migrations create (default privileges of the
 * migrating owner). Idempotent.
 */
async function grantServiceRole(service: string, url: string, password: string): Promise<void> {
  const schema = pgSchemaFor(service);
  const role = roleFor(schema);
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
     ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO "${role}";`,
  );
  console.log(`${service}: role ${role} may use schema "${schema}" only`);
}

export interface MigrateOptions {
  /** Services to migrate: every one by default. */
  services?: string[];
  /** Each service's role password by PostgreSQL schema (DB_PASSWORD_<SCHEMA> without the prefix, lower case). */
  passwords?: Record<string, string>;
}

/** Creates the database when missing, applies what is pending and sets up the roles. Returns what it did, one word. */
export async function migrateDatabase(url: string, o: MigrateOptions = {}): Promise<'up to date' | 'applied'> {
  const known = listServices();
  for (const s of o.services ?? []) {
    if (!known.includes(s)) throw new Error(`Unknown service "${s}" (known: ${known.join(', ') || 'none'})`);
    pgSchemaFor(s);
  }
  const targets = o.services?.length ? o.services : known;
  if (targets.length === 0) throw new Error(`No prisma/<service>/schema.prisma under ${repoRoot}`);

  await ensureDatabase(url).catch((err) => {
    throw new Error(`Cannot reach or create database "${databaseName(url)}": ${errorMessage(err)}`);
  });
  const client = new Client({ connectionString: url });
  await client.connect();
  let engineRuns = 0;
  try {
    for (const service of targets) {
      if (await appliedAlready(client, service)) console.log(`${service}: schema "${pgSchemaFor(service)}" is up to date`);
      else {
        engineRuns++;
        await migrate(service, url).catch((err) => {
          throw new Error(`${service}: migration failed: ${errorMessage(err)}`);
        });
      }
      const password = o.passwords?.[pgSchemaFor(service)];
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

/** DB_PASSWORD_<SCHEMA> of the environment, by schema. */
function passwordsFromEnv(): Record<string, string> {
  const prefix = 'DB_PASSWORD_';
  return Object.fromEntries(
    Object.entries(process.env)
      .filter(([name, value]) => name.startsWith(prefix) && value)
      .map(([name, value]) => [name.slice(prefix.length).toLowerCase(), value as string]),
  );
}

if (require.main === module) {
  migrateDatabase(databaseUrl(), { services: process.argv.slice(2), passwords: passwordsFromEnv() }).then(
    // The engine leaves an un-cleared timer (its 10 s advisory-lock timeout) that would keep Node
    // alive for 10 s after the work is done.
    () => process.exit(0),
    (err) => {
      console.error(`migrate: ${errorMessage(err)}`);
      process.exit(1);
    },
  );
}
