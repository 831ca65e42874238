import { KeyEnvironment } from '@partner/operator-access';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, PREFIX_LENGTH } from '../auth/api-key';
import { FakePartnerRepository } from '../auth/fake-partner-repository.spec-support';
import { Partner } from '../auth/partner.repository';
import { ApiKeyRecord, ApiKeyRepository } from './api-key.repository';

interface StoredKey {
  record: ApiKeyRecord;
  hash: string;
}

/**
 * Partners' API keys in memory, for unit specs: hashes only, every read and revocation scoped to the
 * partner as the SQL is, and a lookup finds the partner as `partners` holds it now. It counts lookups
 * (what the key cache is there to save), can hold them at a gate, or fail them as a lost database does.
 * Unlike the SQL it does not filter by the gateway's environment: the guard refuses the other
 * environment's keys before any lookup.
 */
export class FakeApiKeyRepository implements Pick<ApiKeyRepository, 'authenticate' | 'create' | 'listByPartner' | 'revoke' | 'findById'> {
  private readonly keys: StoredKey[] = [];
  lookups = 0;
  /** Lookups wait for it while set. */
  gate?: Promise<void>;
  /** Lookups fail with it while set. */
  failure?: Error;
  /** The key the next `create` issues, when a spec must know it beforehand. */
  nextKey?: string;

  constructor(
    private readonly partners: FakePartnerRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Stores `key` of the partner, as created earlier. */
  issue(
    partnerId: string,
    key: string,
    { id = randomUUID(), createdAt = this.now() }: { id?: string; createdAt?: Date } = {},
  ): ApiKeyRecord {
    const record: ApiKeyRecord = {
      id,
      partner_id: partnerId,
      prefix: key.slice(0, PREFIX_LENGTH),
      created_at: createdAt,
      last_used_at: null,
      revoked_at: null,
    };
    this.keys.push({ record, hash: hashApiKey(key) });
    return { ...record };
  }

  async authenticate(hash: string): Promise<{ partner: Partner; keyId: string; hash: string } | null> {
    this.lookups++;
    await this.gate;
    if (this.failure) throw this.failure;
    const key = this.keys.find((k) => k.hash === hash && k.record.revoked_at === null);
    const partner = key && this.partners.get(key.record.partner_id);
    return key && partner ? { partner, keyId: key.record.id, hash: key.hash } : null;
  }

  async create(partnerId: string, environment: KeyEnvironment): Promise<{ record: ApiKeyRecord; apiKey: string }> {
    const apiKey = this.nextKey ?? generateApiKey(environment === 'sandbox' ? 'sandbox' : 'live').key;
    this.nextKey = undefined;
    return { record: this.issue(partnerId, apiKey), apiKey };
  }

  async listByPartner(partnerId: string): Promise<ApiKeyRecord[]> {
    return this.keys.filter((k) => k.record.partner_id === partnerId).map((k) => ({ ...k.record }));
  }

  async revoke(_tx: unknown, partnerId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const key = this.find(partnerId, keyId);
    if (!key || key.record.revoked_at) return null;
    key.record.revoked_at = this.now();
    return { ...key.record };
  }

  async findById(_tx: unknown, partnerId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const key = this.find(partnerId, keyId);
    return key ? { ...key.record } : null;
  }

  private find(partnerId: string, keyId: string): StoredKey | undefined {
    return this.keys.find((k) => k.record.partner_id === partnerId && k.record.id === keyId);
  }
}
