import { Topics } from '@partner/contracts';
import { OutboxMessage, Transaction, UnitOfWork } from '@partner/db';
import { generateApiKey, hashApiKey, PREFIX_LENGTH } from '../auth/api-key';
import { ApiKeyCache } from '../auth/api-key-cache';
import { FakePartnerRepository } from '../auth/fake-partner-repository.spec-support';
import { GatewayConfig } from '../config/gateway.config';
import { FakeApiKeyRepository } from './fake-api-key-repository.spec-support';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case';

const PARTNER = '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10';
const KEY = '0b6c2a1e-3f5c-4c1e-9a0b-7a0d1a2e8a43';

/** One key in memory, revoked at 2,000 s, and a unit of work that records what the transaction emitted once it "commits". */
async function setUp({ partnerExists = true, keyExists = true } = {}) {
  const { key: apiKey } = generateApiKey('live');
  const committed: OutboxMessage[] = [];
  const partners = new FakePartnerRepository();
  if (partnerExists) partners.put({ id: PARTNER });
  const keys = new FakeApiKeyRepository(partners, () => new Date(2_000_000));
  if (keyExists) keys.issue(PARTNER, apiKey, { id: KEY, createdAt: new Date(1_000_000) });
  const unitOfWork: Pick<UnitOfWork, 'run'> = {
    run: async <R>(work: (tx: Transaction) => Promise<R>): Promise<R> => {
      const emitted: OutboxMessage[] = [];
      const result = await work({ query: async () => ({ rows: [], rowCount: 0 }), emit: (m) => void emitted.push(m) });
      committed.push(...emitted);
      return result;
    },
  };
  // This instance's cache, holding the key as verified by an earlier request.
  const keyCache = new ApiKeyCache(keys, new GatewayConfig());
  await keyCache.lookUp(hashApiKey(apiKey));
  return {
    useCase: new RevokeApiKeyUseCase(partners, keys, unitOfWork, keyCache),
    committed,
    keyCache,
    hash: hashApiKey(apiKey),
    prefix: apiKey.slice(0, PREFIX_LENGTH),
  };
}

describe('RevokeApiKeyUseCase', () => {
  it('revokes, emits the broadcast in the same transaction, and forgets the key on this instance', async () => {
    const { useCase, committed, keyCache, hash, prefix } = await setUp();
    expect(keyCache.cached(hash)).toBeDefined();
    const view = await useCase.execute(PARTNER, KEY);
    expect(view).toEqual({ id: KEY, prefix, created_at: 1000, last_used_at: null, revoked_at: 2000 });
    expect(committed).toEqual([
      {
        topic: Topics.GatewayApiKeyRevoked,
        key: KEY,
        payload: { partner_id: PARTNER, key_id: KEY, revoked_at: new Date(2_000_000).toISOString() },
      },
    ]);
    expect(keyCache.cached(hash)).toBeUndefined();
  });

  it('is idempotent: a revoked key is answered again, with no second event', async () => {
    const { useCase, committed } = await setUp();
    const first = await useCase.execute(PARTNER, KEY);
    expect(await useCase.execute(PARTNER, KEY)).toEqual(first);
    expect(committed).toHaveLength(1);
  });

  it('answers 404 not_found for an unknown key, 404 partner_not_found for an unknown partner', async () => {
    await expect((await setUp({ keyExists: false })).useCase.execute(PARTNER, KEY)).rejects.toMatchObject({
      status: 404,
      detail: { code: 'not_found' },
    });
    await expect((await setUp({ partnerExists: false })).useCase.execute(PARTNER, KEY)).rejects.toMatchObject({
      status: 404,
      detail: { code: 'partner_not_found' },
    });
  });
});
