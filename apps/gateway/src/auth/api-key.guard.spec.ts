import { repositoryWith } from './api-key.spec-support';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { httpContext, recordingReply } from '../http/http-context.spec-support';
import { toHttpError } from '../http/http-error.filter';
import { generateApiKey, hashApiKey, sameDigest } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyGuard } from './api-key.guard';
import { FailedAuthThrottle } from './failed-auth-throttle';

const contextWith = (headers: Record<string, string>, ip = '192.0.2.1') => {
  const request: Record<string, unknown> = { headers, ip };
  const { reply, sent } = recordingReply();
  return { request, replyHeaders: sent.headers, context: httpContext(request, reply) };
};

const config = Object.assign(new GatewayConfig(), {
  API_KEY_CACHE_MS: 60_000,
  AUTH_FAILURES_PER_SECOND: 1,
  AUTH_FAILURE_BURST: 3,
  SANDBOX: true,
});
const throttle = () => new FailedAuthThrottle(config);

describe('API keys', () => {
  it('are random, prefixed, and stored only as a SHA-256 hex digest', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).toMatch(/^pk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.key.startsWith(a.prefix)).toBe(true);
    expect(sameDigest(a.hash, b.hash)).toBe(false);
  });

  it('say live outside the sandbox: pk_live_ and a 16-character prefix', () => {
    const live = generateApiKey('live');
    expect(live.key).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(live.prefix).toBe(live.key.slice(0, 16));
  });
});

describe('ApiKeyGuard', () => {
  const { key } = generateApiKey();
  const { keys } = repositoryWith(key);
  const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);

  it('attaches the partner of a known key, and remembers it', async () => {
    const { request, context } = contextWith({ 'x-api-key': key });
    expect(await guard.canActivate(context)).toBe(true);
    expect(request.partner).toEqual({ id: 'p1', name: 'P', disabled: false });
    const before = keys.lookups;
    await guard.canActivate(contextWith({ 'x-api-key': key }).context);
    expect(keys.lookups).toBe(before);
  });

  it('puts the partner into the request context, which the logs and the services read', async () => {
    const { request, context } = contextWith({ 'x-api-key': key });
    request.requestContext = { requestId: 'req-1' };
    await guard.canActivate(context);
    expect(request.requestContext).toEqual({ requestId: 'req-1', partnerId: 'p1' });
  });

  it.each([[{}], [{ 'x-api-key': '' }], [{ 'x-api-key': 'pk_sandbox_wrong' }], [{ 'x-api-key': 'x'.repeat(300) }]])(
    'refuses %p with 401 unauthorized',
    async (headers) => {
      const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);
      await expect(guard.canActivate(contextWith(headers as Record<string, string>).context)).rejects.toMatchObject({
        status: 401,
        detail: { code: 'unauthorized' },
      });
      await expect(guard.canActivate(contextWith(headers as Record<string, string>).context)).rejects.toBeInstanceOf(ApiError);
    },
  );
});

describe('ApiKeyGuard: keys carry their environment', () => {
  const production = Object.assign(new GatewayConfig(), { API_KEY_CACHE_MS: 60_000, SANDBOX: false });

  it.each([
    [
      'a sandbox key on a production gateway',
      generateApiKey('sandbox').key,
      production,
      'this API key belongs to the sandbox: a production gateway does not accept it',
    ],
    [
      'a live key on a sandbox gateway',
      generateApiKey('live').key,
      config,
      'this API key belongs to the production environment: a sandbox gateway does not accept it',
    ],
  ])('refuses %s with 401 unauthorized saying why, without asking the database', async (_what, key, gatewayConfig, message) => {
    // The repository knows the key: only its environment keeps it out.
    const { keys } = repositoryWith(key);
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, gatewayConfig), new FailedAuthThrottle(gatewayConfig), gatewayConfig);
    const { request, context } = contextWith({ 'x-api-key': key });
    await expect(guard.canActivate(context)).rejects.toMatchObject({ status: 401, detail: { code: 'unauthorized', message } });
    expect(request.partner).toBeUndefined();
    expect(keys.lookups).toBe(0);
  });

  it('accepts a live key on a production gateway', async () => {
    const { key } = generateApiKey('live');
    const guard = new ApiKeyGuard(new ApiKeyCache(repositoryWith(key).keys, production), new FailedAuthThrottle(production), production);
    const { request, context } = contextWith({ 'x-api-key': key });
    expect(await guard.canActivate(context)).toBe(true);
    expect(request.partner).toEqual({ id: 'p1', name: 'P', disabled: false });
  });
});

describe('ApiKeyGuard when the database does not answer', () => {
  it('answers 503 service_unavailable (retry), not a 500', async () => {
    const { key } = generateApiKey();
    const { keys } = repositoryWith(key);
    keys.failure = new Error('Connection terminated unexpectedly');
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);
    const thrown = await guard.canActivate(contextWith({ 'x-api-key': key }).context).catch((error: unknown) => error);
    // What the partner gets: the gateway's error filter maps the thrown error.
    expect(toHttpError(thrown)).toMatchObject({
      status: 503,
      detail: { code: 'service_unavailable' },
    });
  });
});

describe('ApiKeyGuard under a flood of made-up keys', () => {
  const honestKey = generateApiKey().key;
  const madeUp = () => generateApiKey().key;
  const refusal = (guard: ApiKeyGuard, key: string, ip: string) => {
    const { context, replyHeaders } = contextWith({ 'x-api-key': key }, ip);
    return guard.canActivate(context).then(
      () => ({ status: 200, retryAfter: replyHeaders['retry-after'] }),
      (error: { status: number }) => ({ status: error.status, retryAfter: replyHeaders['retry-after'] }),
    );
  };

  it('answers a made-up key repeated 401 from memory: one lookup, not one per request', async () => {
    const { keys } = repositoryWith(honestKey);
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);
    const key = madeUp();
    for (let i = 0; i < 50; i++) expect((await refusal(guard, key, '198.51.100.7')).status).toBe(401);
    expect(keys.lookups).toBe(1);
  });

  it('answers an address past its failed lookups 429 with Retry-After, without a lookup; other addresses and cached keys go on', async () => {
    const { keys } = repositoryWith(honestKey);
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);
    expect((await refusal(guard, honestKey, '203.0.113.9')).status).toBe(200); // the honest partner, cached from now on
    const lookupsBefore = keys.lookups;
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await refusal(guard, madeUp(), '198.51.100.7'));
    // The burst (3) of lookups, then 429 without asking the database.
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([401, 401, 401]);
    expect(answers.slice(3)).toEqual(Array(7).fill({ status: 429, retryAfter: '1' }));
    expect(keys.lookups - lookupsBefore).toBe(3);
    // The flooding address does not throttle anyone else, and a cached key is never throttled.
    expect((await refusal(guard, madeUp(), '198.51.100.8')).status).toBe(401);
    expect((await refusal(guard, honestKey, '203.0.113.9')).status).toBe(200);
    expect((await refusal(guard, honestKey, '198.51.100.7')).status).toBe(200);
  });

  it("lets a partner's concurrent calls on a cold cache share one lookup: never throttled, however many (was 429 past the burst)", async () => {
    const { keys } = repositoryWith(honestKey);
    let release = () => undefined as void;
    keys.gate = new Promise<void>((resolve) => (release = resolve));
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);
    const answers = Array.from({ length: 32 }, () => refusal(guard, honestKey, '203.0.113.10'));
    release();
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual(Array(32).fill(200));
    expect(keys.lookups).toBe(1);
  });

  it('lets no more lookups be in flight at once than the burst, however many requests come together', async () => {
    const { keys } = repositoryWith(honestKey);
    let release = () => undefined as void;
    keys.gate = new Promise<void>((resolve) => (release = resolve));
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), throttle(), config);
    const answers = Array.from({ length: 10 }, () => refusal(guard, madeUp(), '198.51.100.9'));
    release();
    const statuses = (await Promise.all(answers)).map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(keys.lookups).toBe(3);
  });
});

describe('ApiKeyGuard and a disabled partner', () => {
  it("refuses a disabled partner's valid key with 403 partner_disabled, and lets it through once the cache forgets the partner re-enabled", async () => {
    const { key } = generateApiKey();
    const { keys, partners, partner } = repositoryWith(key);
    partners.put({ ...partner, disabled: true });
    const cache = new ApiKeyCache(keys, config);
    const guard = new ApiKeyGuard(cache, throttle(), config);
    await expect(guard.canActivate(contextWith({ 'x-api-key': key }).context)).rejects.toMatchObject({
      status: 403,
      detail: { code: 'partner_disabled' },
    });
    // Still refused from the cache; re-enabled and forgotten (the broadcast), the next request reads it active.
    partners.put({ ...partner, disabled: false });
    await expect(guard.canActivate(contextWith({ 'x-api-key': key }).context)).rejects.toMatchObject({ status: 403 });
    cache.forgetPartner('p1');
    expect(await guard.canActivate(contextWith({ 'x-api-key': key }).context)).toBe(true);
  });
});
