import { GatewayConfig } from '../config/gateway.config';
import { generateApiKey, hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { repositoryWith } from './api-key.spec-support';
import { pollUntil } from '@partner/testing';

const config = Object.assign(new GatewayConfig(), { API_KEY_CACHE_MS: 60_000 });

/** What the guard does with a key: the cache, else a lookup. */
const authenticate = async (cache: ApiKeyCache, key: string) => cache.cached(hashApiKey(key)) ?? cache.lookUp(hashApiKey(key));

describe('ApiKeyCache', () => {
  it('answers an unknown key null, and knows it is unknown for API_KEY_NEGATIVE_CACHE_MS', async () => {
    const { keys } = repositoryWith(generateApiKey().key);
    const cache = new ApiKeyCache(keys, config);
    const unknown = hashApiKey('pk_live_unknown');
    expect(cache.knownUnknown(unknown)).toBe(false);
    expect(await authenticate(cache, 'pk_live_unknown')).toBeNull();
    expect(cache.knownUnknown(unknown)).toBe(true);
    expect(keys.lookups).toBe(1);
  });

  it('forgets an unknown key after API_KEY_NEGATIVE_CACHE_MS, and remembers none when it is 0', async () => {
    const { keys } = repositoryWith(generateApiKey().key);
    const unknown = hashApiKey('pk_live_unknown');
    const brief = new ApiKeyCache(keys, Object.assign(new GatewayConfig(), { API_KEY_NEGATIVE_CACHE_MS: 1_000 }));
    await authenticate(brief, 'pk_live_unknown');
    expect(brief.knownUnknown(unknown)).toBe(true);
    await pollUntil(
      'the negative entry expired',
      async () => brief.knownUnknown(unknown),
      (known) => !known,
      { timeoutMs: 5_000, intervalMs: 10 },
    );
    const off = new ApiKeyCache(keys, Object.assign(new GatewayConfig(), { API_KEY_NEGATIVE_CACHE_MS: 0 }));
    await authenticate(off, 'pk_live_unknown');
    expect(off.knownUnknown(unknown)).toBe(false);
  });

  it('forgets a revoked key at once: the next request asks the database again', async () => {
    const { key } = generateApiKey();
    const { keys } = repositoryWith(key, 'revoked-key');
    const cache = new ApiKeyCache(keys, config);
    await authenticate(cache, key);
    await authenticate(cache, key);
    expect(keys.lookups).toBe(1);

    cache.forget('another-key');
    await authenticate(cache, key);
    expect(keys.lookups).toBe(1);
    cache.forget('revoked-key');
    await authenticate(cache, key);
    expect(keys.lookups).toBe(2);
  });

  it('makes one lookup for a burst of requests with a key not cached yet', async () => {
    const { key } = generateApiKey();
    const { keys } = repositoryWith(key);
    const cache = new ApiKeyCache(keys, config);
    let release = () => undefined as void;
    keys.gate = new Promise<void>((resolve) => (release = resolve));
    const burst = Array.from({ length: 20 }, () => authenticate(cache, key));
    release();
    expect(await Promise.all(burst)).toEqual(Array(20).fill({ id: 'p1', name: 'P', disabled: false }));
    expect(keys.lookups).toBe(1);
  });

  it('does not cache what a lookup read before a revocation it overlapped', async () => {
    const { key } = generateApiKey();
    const { keys } = repositoryWith(key, 'k');
    const cache = new ApiKeyCache(keys, config);
    let release = () => undefined as void;
    keys.gate = new Promise<void>((resolve) => (release = resolve));
    const inFlight = authenticate(cache, key);
    cache.forget('k');
    release();
    await inFlight;
    keys.gate = undefined;
    await authenticate(cache, key);
    expect(keys.lookups).toBe(2);
  });
});
