import { Injectable } from '@nestjs/common';
import { KeyEnvironment } from '@partner/operator-access';
import { addEnvironmentOperatorKey, countActiveOperatorKeys } from '@partner/operator-access';
import { Database } from '@partner/db';

/** An authenticated operator, as the guard puts it on the request (the audit log and the rate limit read it). */
export interface Operator {
  id: string;
  name: string;
  prefix: string;
}

/** Run when an operator key is not in the guard's cache: prepared once per connection. */
const BY_HASH = {
  name: 'operator_by_key_hash',
  text: 'SELECT id, name, prefix, hash, environment FROM operator_keys WHERE hash = $1 AND revoked_at IS NULL LIMIT 1',
};

/** Operator keys on the pg driver (the statements the CLI shares are in libs/operator-access, operator-keys.ts). */
@Injectable()
export class OperatorKeyRepository {
  constructor(private readonly db: Database) {}

  /** The operator of an active key with this hash, with the stored hash for a constant-time check and the key's environment. */
  async findActiveByHash(hash: string): Promise<(Operator & { hash: string; environment: KeyEnvironment }) | null> {
    const { rows } = await this.db.query<Operator & { hash: string; environment: KeyEnvironment }>(BY_HASH, [hash]);
    return rows[0] ?? null;
  }

  /** Adds ADMIN_API_KEY for `environment` unless present; answers the environment stored with it. */
  addEnvironmentKey(key: string, environment: KeyEnvironment): Promise<KeyEnvironment> {
    return addEnvironmentOperatorKey(this.db, key, environment);
  }

  countActive(environment: KeyEnvironment): Promise<number> {
    return countActiveOperatorKeys(this.db, environment);
  }
}
