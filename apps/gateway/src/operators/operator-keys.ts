import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { generateSecret, hashApiKey } from '../auth/api-key';
import { KeyEnvironment } from '../auth/key-environment';

/**
 * Operator keys (X-Admin-Key) in gateway.operator_keys, on a bare pg pool: the gateway calls these through
 * OperatorKeyRepository, and a CLI can call them directly against the database (no gateway running). The
 * table is named with its schema, so any pool on the database works, whatever its search_path.
 */
export type Queryable = Pick<Pool, 'query'>;

export interface OperatorKey {
  id: string;
  name: string;
  /** Shown in the audit log and listings; never enough to use the key. */
  prefix: string;
  /** Only gateways of this environment accept the key (docs/adr/0019-production-safe-by-default.md). */
  environment: KeyEnvironment;
  created_at: Date;
  revoked_at: Date | null;
}

/** What creating a key answers: the key itself, shown this once (only its SHA-256 is stored). */
export interface CreatedOperatorKey extends OperatorKey {
  key: string;
}

const COLUMNS = 'id, name, prefix, environment, created_at, revoked_at';

/** How long a gateway trusts a verified operator key from memory: a revoked one stops working within this. */
export const OPERATOR_KEY_CACHE_MS = 5_000;

/** Operator keys start `adm_`, so one pasted where a partner key goes (or the reverse) is recognisable. */
export const OPERATOR_KEY_LABEL = 'adm_';

/**
 * Creates an operator key named `name` (who holds it: a person, a team, a system) for the gateways of
 * `environment` (production unless told otherwise), and returns it once.
 */
export async function createOperatorKey(pool: Queryable, name: string, environment: KeyEnvironment = 'production'): Promise<CreatedOperatorKey> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 120) throw new Error('an operator key name is 1-120 characters');
  const { key, prefix, hash } = generateSecret(OPERATOR_KEY_LABEL);
  const { rows } = await pool.query<OperatorKey>(
    `INSERT INTO gateway.operator_keys (id, name, prefix, hash, environment) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [randomUUID(), trimmed, prefix, hash, environment],
  );
  return { ...rows[0], key };
}

/**
 * Adds ADMIN_API_KEY as an operator key named `environment` unless its hash is there already (several
 * instances may start at once: ON CONFLICT makes that harmless; a key an operator revoked stays revoked).
 * It never revokes an earlier environment key: instances of one deployment may start with different keys
 * during a rotation, and one must not lock the other out. Changing ADMIN_API_KEY therefore adds a key;
 * the old one is revoked with `npm run cli -- operator-key revoke` (docs/api.md: "Operator API"). Its prefix is
 * derived from its hash, not its text: an environment key may be short enough that 16 characters of it
 * would be half of it. The key is stored for the `environment` of the gateway that adds it; answers the
 * environment stored with it, which is another one when a gateway of the other environment added it first.
 */
export async function addEnvironmentOperatorKey(pool: Queryable, key: string, environment: KeyEnvironment): Promise<KeyEnvironment> {
  const hash = hashApiKey(key);
  await pool.query(
    `INSERT INTO gateway.operator_keys (id, name, prefix, hash, environment) VALUES ($1, 'environment', $2, $3, $4) ON CONFLICT (hash) DO NOTHING`,
    [randomUUID(), `env_${hash.slice(0, 12)}`, hash, environment],
  );
  const { rows } = await pool.query<{ environment: KeyEnvironment }>('SELECT environment FROM gateway.operator_keys WHERE hash = $1', [hash]);
  return rows[0].environment;
}

/** How many operator keys of `environment` are active. */
export async function countActiveOperatorKeys(pool: Queryable, environment: KeyEnvironment): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM gateway.operator_keys WHERE revoked_at IS NULL AND environment = $1', [environment]);
  return rows[0].n;
}

export async function listOperatorKeys(pool: Queryable): Promise<OperatorKey[]> {
  const { rows } = await pool.query<OperatorKey>(`SELECT ${COLUMNS} FROM gateway.operator_keys ORDER BY created_at, id`);
  return rows;
}

/** Revokes an operator key by id (again: no change); null when there is none. Gateways stop accepting it within OPERATOR_KEY_CACHE_MS. */
export async function revokeOperatorKey(pool: Queryable, id: string): Promise<OperatorKey | null> {
  if (!isUUID(id)) return null;
  const { rows } = await pool.query<OperatorKey>(
    `UPDATE gateway.operator_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1::uuid RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}
