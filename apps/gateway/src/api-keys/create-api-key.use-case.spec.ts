import { ApiKeyCache } from '../auth/api-key-cache';
import { generateApiKey, hashApiKey } from '../auth/api-key';
import { PartnerRepository } from '../auth/partner.repository';
import { GatewayConfig } from '../config/gateway.config';
import { ApiKeyRepository } from './api-key.repository';
import { CreateApiKeyUseCase } from './create-api-key.use-case';

describe('CreateApiKeyUseCase and the negative key cache', () => {
  it('makes a key work at once, even one looked up as unknown just before it was created', async () => {
    const { key } = generateApiKey();
    const hash = hashApiKey(key);
    const stored = new Set<string>();
    const keys = {
      authenticate: async (h: string) => (stored.has(h) ? { partner: { id: 'p1', name: 'P' }, keyId: 'k1', hash: h } : null),
      create: async () => {
        stored.add(hash);
        return { record: { id: 'k1', prefix: key.slice(0, 16), created_at: new Date(0) }, apiKey: key };
      },
    } as unknown as ApiKeyRepository;
    const partners = { exists: async () => true } as unknown as PartnerRepository;
    const config = Object.assign(new GatewayConfig(), { API_KEY_NEGATIVE_CACHE_MS: 600_000 });
    const cache = new ApiKeyCache(keys, config);

    // Presented before it existed: unknown, and remembered as unknown.
    expect(await cache.lookUp(hash)).toBeNull();
    expect(cache.knownUnknown(hash)).toBe(true);

    await new CreateApiKeyUseCase(partners, keys, config, cache).execute('5a0c1d2e-0000-4000-8000-000000000001');

    // No stale negative entry: the guard asks the database, which knows it now.
    expect(cache.knownUnknown(hash)).toBe(false);
    expect(await cache.lookUp(hash)).toEqual({ id: 'p1', name: 'P' });
  });
});
