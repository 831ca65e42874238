import { KeyEnvironment } from '@partner/operator-access';
import { randomUUID } from 'node:crypto';
import { hashApiKey } from '../auth/api-key';
import { Operator, OperatorKeyRepository } from './operator-key.repository';

interface StoredOperatorKey extends Operator {
  hash: string;
  environment: KeyEnvironment;
}

/**
 * gateway.operator_keys in memory, for unit specs: hashes only, each with the environment it was made
 * for, and ADMIN_API_KEY added as the SQL adds it (named `environment`, unless its hash is there). Counts
 * lookups, which the guard's cache is there to save.
 */
export class FakeOperatorKeyRepository implements Pick<OperatorKeyRepository, 'findActiveByHash' | 'addEnvironmentKey' | 'countActive'> {
  private readonly keys: StoredOperatorKey[] = [];
  lookups = 0;

  /** Stores `key` as made earlier (by the CLI, or as some gateway's ADMIN_API_KEY with `name: 'environment'`). */
  add(
    key: string,
    {
      id = randomUUID(),
      name = 'cli',
      prefix = key.slice(0, 16),
      environment = 'production',
    }: Partial<Omit<StoredOperatorKey, 'hash'>> = {},
  ): void {
    this.keys.push({ id, name, prefix, hash: hashApiKey(key), environment });
  }

  /** The ADMIN_API_KEYs stored (keys named `environment`): their hash and environment, in the order added. */
  environmentKeys(): Array<{ hash: string; environment: KeyEnvironment }> {
    return this.keys.filter((k) => k.name === 'environment').map(({ hash, environment }) => ({ hash, environment }));
  }

  async findActiveByHash(hash: string): Promise<(Operator & { hash: string; environment: KeyEnvironment }) | null> {
    this.lookups++;
    const key = this.keys.find((k) => k.hash === hash);
    return key ? { ...key } : null;
  }

  async addEnvironmentKey(key: string, environment: KeyEnvironment): Promise<KeyEnvironment> {
    const hash = hashApiKey(key);
    const stored = this.keys.find((k) => k.hash === hash);
    if (stored) return stored.environment;
    this.add(key, { name: 'environment', prefix: `env_${hash.slice(0, 12)}`, environment });
    return environment;
  }

  async countActive(environment: KeyEnvironment): Promise<number> {
    return this.keys.filter((k) => k.environment === environment).length;
  }
}
