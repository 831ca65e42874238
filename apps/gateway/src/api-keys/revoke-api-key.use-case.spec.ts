import { Topics } from '@partner/contracts';
import { OutboxMessage, Transaction, UnitOfWork } from '@partner/kafka';
import { ApiKeyCache } from '../auth/api-key-cache';
import { PartnerRepository } from '../auth/partner.repository';
import { ApiKeyRecord, ApiKeyRepository } from './api-key.repository';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case';

const PARTNER = '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10';
const KEY = '0b6c2a1e-3f5c-4c1e-9a0b-7a0d1a2e8a43';

/** One key in memory, and a unit of work that records what the transaction emitted once it "commits". */
function setUp({ partnerExists = true, keyExists = true } = {}) {
  const key: ApiKeyRecord = { id: KEY, partner_id: PARTNER, prefix: 'pk_live_abcdefgh', created_at: new Date(1_000_000), last_used_at: null, revoked_at: null };
  const committed: OutboxMessage[] = [];
  const forgotten: string[] = [];
  const keys = {
    revoke: async (_tx: Transaction, partnerId: string, keyId: string) => {
      if (!keyExists || key.revoked_at || partnerId !== PARTNER || keyId !== KEY) return null;
      key.revoked_at = new Date(2_000_000);
      return { ...key };
    },
    findById: async () => (keyExists ? { ...key } : null),
  } as unknown as ApiKeyRepository;
  const unitOfWork = {
    run: async <R>(work: (tx: Transaction) => Promise<R>) => {
      const emitted: OutboxMessage[] = [];
      const result = await work({ rows: async () => [], emit: (m: OutboxMessage) => void emitted.push(m) });
      committed.push(...emitted);
      return result;
    },
  } as unknown as UnitOfWork;
  const partners = { exists: async () => partnerExists } as unknown as PartnerRepository;
  const keyCache = { forget: (id: string) => void forgotten.push(id) } as unknown as ApiKeyCache;
  return { useCase: new RevokeApiKeyUseCase(partners, keys, unitOfWork, keyCache), committed, forgotten };
}

describe('RevokeApiKeyUseCase', () => {
  it('revokes, emits the broadcast in the same transaction, and forgets the key on this instance', async () => {
    const { useCase, committed, forgotten } = setUp();
    const view = await useCase.execute(PARTNER, KEY);
    expect(view).toEqual({ id: KEY, prefix: 'pk_live_abcdefgh', created_at: 1000, last_used_at: null, revoked_at: 2000 });
    expect(committed).toEqual([
      { topic: Topics.GatewayApiKeyRevoked, key: KEY, payload: { partner_id: PARTNER, key_id: KEY, revoked_at: new Date(2_000_000).toISOString() } },
    ]);
    expect(forgotten).toEqual([KEY]);
  });

  it('is idempotent: a revoked key is answered again, with no second event', async () => {
    const { useCase, committed } = setUp();
    const first = await useCase.execute(PARTNER, KEY);
    expect(await useCase.execute(PARTNER, KEY)).toEqual(first);
    expect(committed).toHaveLength(1);
  });

  it('answers 404 not_found for an unknown key, 404 partner_not_found for an unknown partner', async () => {
    await expect(setUp({ keyExists: false }).useCase.execute(PARTNER, KEY)).rejects.toMatchObject({ status: 404, detail: { code: 'not_found' } });
    await expect(setUp({ partnerExists: false }).useCase.execute(PARTNER, KEY)).rejects.toMatchObject({ status: 404, detail: { code: 'partner_not_found' } });
  });
});
