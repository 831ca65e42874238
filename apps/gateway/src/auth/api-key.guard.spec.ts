import { ExecutionContext } from '@nestjs/common';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { repositoryWith } from './api-key.spec-support';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { toHttpError } from '../http/http-error.filter';
import { generateApiKey, hashApiKey, sameDigest } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyGuard } from './api-key.guard';

const contextWith = (headers: Record<string, string>) => {
  const request: Record<string, unknown> = { headers };
  return { request, context: { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext };
};

const config = Object.assign(new GatewayConfig(), { API_KEY_CACHE_MS: 60_000, SANDBOX: true });

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
  const { keys, state } = repositoryWith(key);
  const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), config);

  it('attaches the partner of a known key, and remembers it', async () => {
    const { request, context } = contextWith({ 'x-api-key': key });
    expect(await guard.canActivate(context)).toBe(true);
    expect(request.partner).toEqual({ id: 'p1', name: 'P' });
    const before = state.lookups;
    await guard.canActivate(contextWith({ 'x-api-key': key }).context);
    expect(state.lookups).toBe(before);
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
    ['a sandbox key on a production gateway', generateApiKey('sandbox').key, production, 'this API key belongs to the sandbox: a production gateway does not accept it'],
    ['a live key on a sandbox gateway', generateApiKey('live').key, config, 'this API key belongs to the production environment: a sandbox gateway does not accept it'],
  ])('refuses %s with 401 unauthorized saying why, without asking the database', async (_what, key, gatewayConfig, message) => {
    // The repository knows the key: only its environment keeps it out.
    const { keys, state } = repositoryWith(key);
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, gatewayConfig), gatewayConfig);
    const { request, context } = contextWith({ 'x-api-key': key });
    await expect(guard.canActivate(context)).rejects.toMatchObject({ status: 401, detail: { code: 'unauthorized', message } });
    expect(request.partner).toBeUndefined();
    expect(state.lookups).toBe(0);
  });

  it('accepts a live key on a production gateway', async () => {
    const { key } = generateApiKey('live');
    const guard = new ApiKeyGuard(new ApiKeyCache(repositoryWith(key).keys, production), production);
    const { request, context } = contextWith({ 'x-api-key': key });
    expect(await guard.canActivate(context)).toBe(true);
    expect(request.partner).toEqual({ id: 'p1', name: 'P' });
  });
});

describe('ApiKeyGuard when the database does not answer', () => {
  it('answers 503 service_unavailable (retry), not a 500', async () => {
    const keys = { authenticate: async () => Promise.reject(new Error('Connection terminated unexpectedly')) } as unknown as ApiKeyRepository;
    const guard = new ApiKeyGuard(new ApiKeyCache(keys, config), config);
    const thrown = await guard.canActivate(contextWith({ 'x-api-key': generateApiKey().key }).context).catch((error: unknown) => error);
    // What the partner gets: the gateway's error filter maps the thrown error.
    expect(toHttpError(thrown)).toMatchObject({
      status: 503,
      detail: { code: 'service_unavailable' },
    });
  });
});
