/**
 * Shared plumbing for scripts/db: Prisma's schema engine (migrations) compiled to WebAssembly and
 * driven through the pg driver adapter.
 *
 * Why not the Prisma CLI: it downloads its native schema engine from Prisma's own server at start-up,
 * and only the npm registry is reachable here. The WebAssembly build ships on npm
 * (@prisma/schema-engine-wasm, the same engine build as the pinned `prisma` CLI) and produces the
 * same migration SQL and the same `_prisma_migrations` rows as `prisma migrate deploy`.
 *
 * Layout convention (see docs/database-migrations.md, "Layout and names"): prisma/<service>/schema.prisma, migrations in
 * prisma/<service>/migrations, tables and `_prisma_migrations` in the PostgreSQL schema
 * the caller names (scripts/lib/services.ts: pgSchemaOf), of the database named by DATABASE_URL. Nothing here
 * imports the rest of the repository (offline/README.md: each workaround can be dropped as a unit).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { Client, type PoolConfig } from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlResultSet,
} from '@prisma/driver-adapter-utils';
// Type-only (the package is ESM; the runtime module is loaded by path in loadBindings), with the
// resolution-mode attribute that module node16 requires for that and other settings accept.
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm' with { 'resolution-mode': 'import' };

export const repoRoot = path.resolve(__dirname, '..', '..');
export const prismaDir = path.join(repoRoot, 'prisma');

/** Nothing in our schemas is managed outside Prisma. */
export const noFilter: SchemaFilter = { externalTables: [], externalEnums: [] };

/** Services are the folders of prisma/ that hold a schema.prisma. */
export function listServices(): string[] {
  if (!existsSync(prismaDir)) return [];
  return readdirSync(prismaDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(prismaDir, d.name, 'schema.prisma')))
    .map((d) => d.name)
    .sort();
}

/** DATABASE_URL without any `?schema=`: the schema is chosen per service, not per URL. */
export function databaseUrl(): string {
  const raw = process.env.DATABASE_URL;
  if (!raw) {
    throw new Error('DATABASE_URL is not set (e.g. postgresql://postgres@127.0.0.1:5432/partner)');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`DATABASE_URL is not a valid URL: ${raw}`);
  }
  url.searchParams.delete('schema');
  return url.toString();
}

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL names no database: ${url}`);
  return name;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** Runs one statement on its own short-lived connection. */
export async function runSql(url: string, sql: string, params: unknown[] = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/**
 * Runs one statement on the maintenance database `postgres` of the same server: CREATE/DROP DATABASE
 * cannot run inside the database concerned (and it may not exist yet).
 */
export function onMaintenanceDb(url: string, sql: string, params: unknown[] = []) {
  return runSql(withDatabase(url, 'postgres'), sql, params);
}

/**
 * adapter-pg 7.10 has no mapping for PostgreSQL's internal one-byte type "char" (OID 18) and rejects
 * any result holding one, but the engine's catalog queries return such columns (pg_constraint.contype
 * ...) and read them as Character values. So: at the pg layer such a column is reported as text with
 * CHAR_MARK appended to its name (rows are arrays, so names are only labels), and the adapter's results
 * turn marked columns back into Character (see restoreCharColumns).
 */
const CHAR_MARK = '\u0000char';

function restoreCharColumns(result: SqlResultSet): SqlResultSet {
  result.columnNames.forEach((name, i) => {
    if (!name.endsWith(CHAR_MARK)) return;
    result.columnNames[i] = name.slice(0, -CHAR_MARK.length);
    result.columnTypes[i] = ColumnTypeEnum.Character;
  });
  return result;
}

type ResultFields = { fields?: Array<{ dataTypeID: number; name: string }> } | null | undefined;
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';

class CharAsTextClient extends Client {
  // An override of pg's overloaded query() can only return `any`: no other type suits every overload.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: unknown[]): any {
    const fix = (res: unknown) => {
      for (const r of (Array.isArray(res) ? res : [res]) as ResultFields[]) {
        for (const f of r?.fields ?? [])
          if (f.dataTypeID === 18) {
            f.dataTypeID = 25;
            f.name += CHAR_MARK;
          }
      }
      return res;
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      // pg.Pool calls query(config, values, callback)
      const cb = args[last] as (err: unknown, res: unknown) => void;
      args[last] = (err: unknown, res: unknown) => cb(err, err ? res : fix(res));
    }
    const ret = (super.query as (...a: unknown[]) => unknown)(...args);
    return isThenable(ret) ? ret.then(fix) : ret;
  }
}

/**
 * The migration engine sends migration SQL unqualified, exactly as `prisma migrate deploy` with
 * `?schema=<name>` does, so the session's search_path must point at the service's schema; the
 * `schema` adapter option tells the engine which namespace to introspect and where
 * `_prisma_migrations` lives.
 */
function poolConfig(url: string, schema: string): PoolConfig {
  return { connectionString: url, options: `-c search_path=${schema}`, Client: CharAsTextClient };
}

/**
 * PrismaPg as the engine needs it for one service:
 * - connectToShadowDb: PrismaPg's own shadow database ignores the `schema` option, so migrations
 *   replayed there were introspected in `public` and every diff re-created all tables;
 * - executeScript: PrismaPg splits scripts on ';' (breaking string literals, DO blocks, functions);
 *   the native engine sends a migration as one simple query, which we do too (same implicit
 *   transaction semantics);
 * - every adapter is tracked so close() can end its pool: the engine never does, and the
 *   `pg_advisory_lock` it takes for migrations lives on one of those connections.
 */
class ServiceAdapterFactory extends PrismaPg {
  private readonly open = new Set<SqlDriverAdapter>();

  constructor(
    private readonly url: string,
    private readonly schema: string,
  ) {
    super(poolConfig(url, schema), { schema });
  }

  override async connect() {
    return this.track(await super.connect());
  }

  override async connectToShadowDb() {
    const name = `prisma_migrate_shadow_db_${randomUUID()}`;
    await onMaintenanceDb(this.url, `CREATE DATABASE "${name}"`);
    const shadow = new PrismaPg(poolConfig(withDatabase(this.url, name), this.schema), { schema: this.schema });
    const adapter = this.track(await shadow.connect());
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose(); // its connections must be gone before the database can be dropped
      await onMaintenanceDb(this.url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return adapter;
  }

  private track<A extends SqlDriverAdapter>(adapter: A): A {
    const queryRaw = adapter.queryRaw.bind(adapter);
    adapter.queryRaw = async (query) => restoreCharColumns(await queryRaw(query));
    adapter.executeScript = async (script: string) => {
      await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
    };
    const dispose = adapter.dispose.bind(adapter);
    let disposed = false;
    adapter.dispose = async () => {
      if (disposed) return;
      disposed = true;
      this.open.delete(adapter);
      await dispose();
    };
    this.open.add(adapter);
    return adapter;
  }

  async close() {
    for (const adapter of [...this.open]) await adapter.dispose().catch(() => undefined);
  }
}

type WasmBindings = typeof import('@prisma/schema-engine-wasm', { with: { 'resolution-mode': 'import' } });
// Node has WebAssembly, but its typings come only with lib "dom" or a recent @types/node.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: { __wbindgen_start(): void } } }>;
};
let bindings: Promise<WasmBindings> | undefined;

/** Loads and starts the WebAssembly module once per process. */
function loadBindings(): Promise<WasmBindings> {
  bindings ??= (async () => {
    // The package's main entry imports the .wasm as an ES module, which Node cannot do; its
    // `schema_engine_bg` entry holds the JS bindings and we instantiate the .wasm next to it.
    const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bg = require(bgPath) as WasmBindings & { __wbg_set_wasm(exports: unknown): void };
    // A Rust panic reports its message here before the call fails with a bare "unreachable".
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } }).PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message: (message: string) => console.error(`schema engine panic: ${message}`),
    };
    const wasmFile = path.join(path.dirname(bgPath), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(readFileSync(wasmFile), { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return bg;
  })();
  return bindings;
}

/** Reads a migrations folder the way the Prisma CLI does before handing it to the engine. */
export function readMigrations(migrationsDir: string): MigrationList {
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const dirs = existsSync(migrationsDir)
    ? readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs
      .sort((a, b) => a.localeCompare(b))
      .map((dir) => {
        const file = path.join(migrationsDir, dir, 'migration.sql');
        return {
          path: dir,
          migrationFile: {
            path: 'migration.sql',
            content: existsSync(file)
              ? { tag: 'ok' as const, value: readFileSync(file, 'utf8') }
              : { tag: 'error' as const, value: `missing ${file}` },
          },
        };
      }),
  };
}

export interface ServiceEngine {
  engine: SchemaEngine;
  service: string;
  pgSchema: string;
  schemaPath: string;
  schemaContent: string;
  migrationsDir: string;
  close(): Promise<void>;
}

/** Starts a schema engine bound to one service's schema.prisma and its PostgreSQL schema `pgSchema`. */
export async function openEngine(service: string, pgSchema: string, url = databaseUrl()): Promise<ServiceEngine> {
  const schemaPath = path.join(prismaDir, service, 'schema.prisma');
  if (!existsSync(schemaPath)) {
    throw new Error(`Unknown service "${service}": ${path.relative(repoRoot, schemaPath)} does not exist`);
  }
  const schemaContent = readFileSync(schemaPath, 'utf8');
  const { SchemaEngine } = await loadBindings();
  const factory = new ServiceAdapterFactory(url, pgSchema);
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, schemaContent]] },
    (line: string) => {
      // The engine logs JSON lines; only warnings and errors are worth showing.
      try {
        const { level, fields } = JSON.parse(line);
        if (level === 'WARN' || level === 'ERROR') console.error(`[schema engine] ${fields?.message ?? line}`);
      } catch {
        /* not JSON: ignore */
      }
    },
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return {
    engine,
    service,
    pgSchema,
    schemaPath,
    schemaContent,
    migrationsDir: path.join(prismaDir, service, 'migrations'),
    close: async () => {
      engine.free();
      await factory.close();
    },
  };
}

/** Engine errors carry a Rust span trace after the message: keep the message. */
export function errorMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split(/\n\s+0: /)[0].trim();
}
