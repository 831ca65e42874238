import { Injectable } from '@nestjs/common';
import { PartnerId } from '@partner/contracts';
import { randomUUID } from 'node:crypto';
import { Database, statement, Statement, Transaction } from '@partner/db';
import { generateApiKey } from '../auth/api-key';
import { environmentOf, KeyEnvironment } from '@partner/operator-access';
import { Partner, partnerOf, PartnerRow } from '../auth/partner.repository';
import { GatewayConfig } from '../config/gateway.config';

/** A partner's API key as the operator API shows it: never the key or its hash. */
export interface ApiKeyRecord {
  id: string;
  partner_id: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, partner_id, prefix, created_at, last_used_at, revoked_at';

/**
 * Run on every request whose key is not in the gateway's cache (prepared once per connection): the
 * partner of an active key of the gateway's environment ($3: a key of the other one is as unknown), and
 * last_used_at moved to now when it is older than $2 seconds. So the column costs a write at most once per
 * key per interval, whatever the number of instances and requests.
 */
const AUTHENTICATE = {
  name: 'api_key_authenticate',
  text: `WITH key AS (
           SELECT k.id AS key_id, k.hash, k.last_used_at, p.id, p.name, p.rate_limit_per_second, p.rate_limit_burst, p.disabled_at
           FROM api_keys k JOIN partners p ON p.id = k.partner_id
           WHERE k.hash = $1 AND k.revoked_at IS NULL AND k.environment = $3 LIMIT 1),
         touched AS (
           UPDATE api_keys SET last_used_at = now()
           WHERE id = (SELECT key_id FROM key) AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2)))
         SELECT key_id, hash, id, name, rate_limit_per_second, rate_limit_burst, disabled_at FROM key`,
};

const REVOKE: Statement = statement(
  'api_key_revoke',
  `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND partner_id = $2 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
);
const BY_ID: Statement = statement('api_key_by_id', `SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND partner_id = $2`);

/** Partners' API keys (hashes only) on the pg driver, like every gateway query at run time. */
@Injectable()
export class ApiKeyRepository {
  /** last_used_at is written at most this often per key: half the key cache, at least a second. */
  private readonly touchSeconds: number;
  /** Only keys of this environment authenticate here (docs/adr/0019-production-safe-by-default.md). */
  private readonly environment: KeyEnvironment;

  constructor(
    private readonly db: Database,
    config: GatewayConfig,
  ) {
    this.touchSeconds = Math.max(1, config.API_KEY_CACHE_MS / 2000);
    this.environment = environmentOf(config);
  }

  /** The partner owning an active key of this gateway's environment with this hash (and the key's id, and the stored hash for a constant-time check). */
  async authenticate(hash: string): Promise<{ partner: Partner; keyId: string; hash: string } | null> {
    const { rows } = await this.db.query<PartnerRow & { key_id: string; hash: string }>(AUTHENTICATE, [
      hash,
      this.touchSeconds,
      this.environment,
    ]);
    const row = rows[0];
    if (!row) return null;
    return { partner: partnerOf(row), keyId: row.key_id, hash: row.hash };
  }

  /** A new key of the partner for `environment` (its text says it too); the key itself is returned once and never stored. */
  async create(partnerId: PartnerId, environment: KeyEnvironment): Promise<{ record: ApiKeyRecord; apiKey: string }> {
    const { key, prefix, hash } = generateApiKey(environment === 'sandbox' ? 'sandbox' : 'live');
    const { rows } = await this.db.query<ApiKeyRecord>(
      `INSERT INTO api_keys (id, partner_id, prefix, hash, environment) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [randomUUID(), partnerId, prefix, hash, environment],
    );
    return { record: rows[0], apiKey: key };
  }

  /** Every key of the partner, revoked ones included, oldest first. */
  async listByPartner(partnerId: PartnerId): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query<ApiKeyRecord>(`SELECT ${COLUMNS} FROM api_keys WHERE partner_id = $1 ORDER BY created_at, id`, [
      partnerId,
    ]);
    return rows;
  }

  /** Revokes an active key in the caller's transaction; null when the partner has no such active key. */
  async revoke(tx: Transaction, partnerId: PartnerId, keyId: string): Promise<ApiKeyRecord | null> {
    const {
      rows: [row],
    } = await tx.query<ApiKeyRecord & Record<string, unknown>>(REVOKE, [keyId, partnerId]);
    return row ?? null;
  }

  async findById(tx: Transaction, partnerId: PartnerId, keyId: string): Promise<ApiKeyRecord | null> {
    const {
      rows: [row],
    } = await tx.query<ApiKeyRecord & Record<string, unknown>>(BY_ID, [keyId, partnerId]);
    return row ?? null;
  }
}
