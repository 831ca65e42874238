import { ApiKeyCache } from '../auth/api-key-cache';
import { generateApiKey, hashApiKey } from '../auth/api-key';
import { FakePartnerRepository } from '../auth/fake-partner-repository.spec-support';
import { GatewayConfig } from '../config/gateway.config';
import { CreateApiKeyUseCase } from './create-api-key.use-case';
import { FakeApiKeyRepository } from './fake-api-key-repository.spec-support';

const PARTNER = '5a0c1d2e-0000-4000-8000-000000000001';

describe('CreateApiKeyUseCase and the negative key cache', () => {
  it('makes a key work at once, even one looked up as unknown just before it was created', async () => {
    const { key } = generateApiKey();
    const hash = hashApiKey(key);
    const partners = new FakePartnerRepository();
    const partner = partners.put({ id: PARTNER, name: 'P' });
    const keys = new FakeApiKeyRepository(partners);
    keys.nextKey = key;
    const config = Object.assign(new GatewayConfig(), { API_KEY_NEGATIVE_CACHE_MS: 600_000 });
    const cache = new ApiKeyCache(keys, config);

    // Presented before it existed: unknown, and remembered as unknown.
    expect(await cache.lookUp(hash)).toBeNull();
    expect(cache.knownUnknown(hash)).toBe(true);

    await new CreateApiKeyUseCase(partners, keys, config, cache).execute(PARTNER);

    // No stale negative entry: the guard asks the database, which knows it now.
    expect(cache.knownUnknown(hash)).toBe(false);
    expect(await cache.lookUp(hash)).toEqual(partner);
  });
});
