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
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
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
} from './schema-engine';

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

async function main() {
  const url = databaseUrl();
  const known = listServices();
  const services = process.argv.slice(2);
  for (const s of services) {
    if (!known.includes(s)) throw new Error(`Unknown service "${s}" (known: ${known.join(', ') || 'none'})`);
    pgSchemaFor(s);
  }
  const targets = services.length ? services : known;
  if (targets.length === 0) throw new Error(`No prisma/<service>/schema.prisma under ${repoRoot}`);

  await ensureDatabase(url).catch((err) => {
    throw new Error(`Cannot reach or create database "${databaseName(url)}": ${errorMessage(err)}`);
  });
  for (const service of targets) {
    try {
      await migrate(service, url);
    } catch (err) {
      throw new Error(`${service}: migration failed: ${errorMessage(err)}`);
    }
    const password = process.env[`DB_PASSWORD_${pgSchemaFor(service).toUpperCase()}`];
    if (password) {
      await grantServiceRole(service, url, password).catch((err) => {
        throw new Error(`${service}: role setup failed: ${errorMessage(err)}`);
      });
    }
  }
}

main().then(
  // The engine leaves an un-cleared timer (its 10 s advisory-lock timeout) that would keep Node
  // alive for 10 s after the work is done.
  () => process.exit(0),
  (err) => {
    console.error(`migrate: ${errorMessage(err)}`);
    process.exit(1);
  },
);
