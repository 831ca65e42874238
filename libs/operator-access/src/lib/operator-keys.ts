import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { Topics } from '@partner/contracts';
import { eventOrigin } from '@partner/kafka';
import { RequestContexts } from '@partner/runtime';
import { ConnectionPool, outboxMessage, Transaction, UnitOfWork } from '@partner/db';
import { appendAuditEntry, AuditEntry, Queryable } from './audit-log';
import { KeyEnvironment } from './key-environment';
import { generateSecret, hashApiKey } from './secret-keys';

/**
 * Operator keys (X-Admin-Key) in gateway.operator_keys, on any database or transaction: the gateway calls these through
 * OperatorKeyRepository, and the CLI calls them directly against the database (no gateway running). The
 * table is named with its schema, so any connection to the database works, whatever its search_path.
 */
export type { Queryable };

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
export async function createOperatorKey(
  pool: Queryable,
  name: string,
  environment: KeyEnvironment = 'production',
): Promise<CreatedOperatorKey> {
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
  const { rows } = await pool.query<{ environment: KeyEnvironment }>('SELECT environment FROM gateway.operator_keys WHERE hash = $1', [
    hash,
  ]);
  return rows[0].environment;
}

/** How many operator keys of `environment` are active. */
export async function countActiveOperatorKeys(pool: Queryable, environment: KeyEnvironment): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM gateway.operator_keys WHERE revoked_at IS NULL AND environment = $1',
    [environment],
  );
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

/**
 * The operator-key commands of the CLI (`npm run cli -- operator-key create|revoke`), each one transaction
 * that also writes its audit entry (gateway.audit_log, as an /admin/v1 call writes one: method `CLI`, the
 * command as its route, no operator key since the database itself is the authority) and, for a
 * revocation, the gateway.event.api-key-revoked.v1 event in the gateway's outbox, the topic partner key
 * revocations use: every running gateway forgets the key when it hears it (the relay publishes the row
 * at its next poll, OUTBOX_POLL_MS), instead of trusting its cache for OPERATOR_KEY_CACHE_MS more.
 * `db`: the database, its search_path `gateway` (the outbox table is the gateway's).
 */
export class OperatorKeyCommands {
  private readonly unitOfWork: UnitOfWork;

  // No relay in this process: the gateways' relays publish the outbox row (their safety-net poll finds it).
  constructor(db: ConnectionPool) {
    this.unitOfWork = new UnitOfWork(db, { wake: () => undefined }, eventOrigin);
  }

  create(name: string, environment: KeyEnvironment = 'production'): Promise<CreatedOperatorKey> {
    return this.audited('create', async (tx) => {
      const created = await createOperatorKey(tx, name, environment);
      return { result: created, statusCode: 201, keyId: created.id };
    });
  }

  /** null: no operator key with this id (audited as 404). Revoking a revoked key changes nothing and broadcasts nothing. */
  revoke(id: string): Promise<OperatorKey | null> {
    return this.audited('revoke', async (tx) => {
      const before = isUUID(id)
        ? (await tx.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM gateway.operator_keys WHERE id = $1::uuid FOR UPDATE', [id]))
            .rows
        : [];
      const revoked = before.length > 0 ? await revokeOperatorKey(tx, id) : null;
      if (revoked && before[0].revoked_at === null) {
        tx.emit(
          outboxMessage(Topics.GatewayApiKeyRevoked, {
            key_type: 'operator',
            key_id: revoked.id,
            revoked_at: (revoked.revoked_at as Date).toISOString(),
          }),
        );
      }
      return { result: revoked, statusCode: revoked ? 200 : 404, keyId: isUUID(id) ? id : null };
    });
  }

  /** Runs `change` and appends its audit entry in the same transaction, under a request id of its own (the outbox row carries it too). */
  private audited<T>(
    command: string,
    change: (tx: Transaction) => Promise<{ result: T; statusCode: number; keyId: string | null }>,
  ): Promise<T> {
    const requestId = randomUUID();
    return RequestContexts.run({ requestId }, () =>
      this.unitOfWork.run(async (tx) => {
        const { result, statusCode, keyId } = await change(tx);
        const entry: AuditEntry = {
          operatorKeyId: null,
          operatorKeyPrefix: null,
          method: 'CLI',
          route: `operator-key ${command}`,
          partnerId: null,
          keyId,
          document: null,
          statusCode,
          requestId,
        };
        await appendAuditEntry(tx, entry);
        return result;
      }),
    );
  }
}
