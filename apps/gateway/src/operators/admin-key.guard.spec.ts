import { generateApiKey } from '../auth/api-key';
import { FailedAuthThrottle } from '../auth/failed-auth-throttle';
import { GatewayConfig } from '../config/gateway.config';
import { httpContext } from '../http/http-context.spec-support';
import { AdminKeyGuard } from './admin-key.guard';
import { FakeOperatorKeyRepository } from './fake-operator-key-repository.spec-support';
import { OperatorKeyCache } from './operator-key-cache';
import { Operator } from './operator-key.repository';

const contextWith = (headers: Record<string, string>) => {
  const request: { headers: Record<string, string>; ip: string; operator?: Operator } = { headers, ip: '192.0.2.1' };
  return { request, context: httpContext(request) };
};

describe('AdminKeyGuard', () => {
  const operatorKey = 'adm_' + 'k'.repeat(43);
  const sandboxKey = 'adm_' + 's'.repeat(43);
  const keys = new FakeOperatorKeyRepository();
  keys.add(operatorKey, { id: 'o1', name: 'ops team', prefix: 'adm_kkkkkkkkkkkk', environment: 'production' });
  keys.add(sandboxKey, { id: 'o2', name: 'environment', prefix: 'env_0123456789ab', environment: 'sandbox' });
  const cache = new OperatorKeyCache(new GatewayConfig());
  const throttle = new FailedAuthThrottle(Object.assign(new GatewayConfig(), { AUTH_FAILURE_BURST: 1_000 }));
  const guard = new AdminKeyGuard(keys, cache, throttle, Object.assign(new GatewayConfig(), { SANDBOX: false }));

  it('puts the operator of an active key on the request (for the audit log and the rate limit), and remembers it briefly', async () => {
    const { request, context } = contextWith({ 'x-admin-key': operatorKey });
    expect(await guard.canActivate(context)).toBe(true);
    expect(request.operator).toEqual({ id: 'o1', name: 'ops team', prefix: 'adm_kkkkkkkkkkkk' });
    const before = keys.lookups;
    await guard.canActivate(contextWith({ 'x-admin-key': operatorKey }).context);
    expect(keys.lookups).toBe(before);
  });

  it('looks a key up again once its revocation made the cache forget it (the broadcast)', async () => {
    await guard.canActivate(contextWith({ 'x-admin-key': operatorKey }).context);
    const before = keys.lookups;
    cache.forget('another-key');
    await guard.canActivate(contextWith({ 'x-admin-key': operatorKey }).context);
    expect(keys.lookups).toBe(before);
    cache.forget('o1');
    await guard.canActivate(contextWith({ 'x-admin-key': operatorKey }).context);
    expect(keys.lookups).toBe(before + 1);
  });

  it('refuses an operator key made in the sandbox with 401 saying so (a production gateway over a database a sandbox used)', async () => {
    const { request, context } = contextWith({ 'x-admin-key': sandboxKey });
    await expect(guard.canActivate(context)).rejects.toMatchObject({
      status: 401,
      detail: { code: 'unauthorized', message: 'this operator key belongs to the sandbox: a production gateway does not accept it' },
    });
    expect(request.operator).toBeUndefined();
    // Never remembered as valid: refused again on the next call.
    await expect(guard.canActivate(contextWith({ 'x-admin-key': sandboxKey }).context)).rejects.toMatchObject({ status: 401 });
  });

  it('a sandbox gateway accepts that key and refuses the production one', async () => {
    const sandboxGuard = new AdminKeyGuard(
      keys,
      new OperatorKeyCache(new GatewayConfig()),
      throttle,
      Object.assign(new GatewayConfig(), { SANDBOX: true }),
    );
    expect(await sandboxGuard.canActivate(contextWith({ 'x-admin-key': sandboxKey }).context)).toBe(true);
    await expect(sandboxGuard.canActivate(contextWith({ 'x-admin-key': operatorKey }).context)).rejects.toMatchObject({
      status: 401,
      detail: { code: 'unauthorized' },
    });
  });

  it.each([
    ['no header', {}],
    ['an empty one', { 'x-admin-key': '' }],
    ['a wrong key', { 'x-admin-key': 'adm_wrong' }],
    ['a partner key', { 'x-admin-key': generateApiKey('live').key }],
    ['the operator key as X-API-Key', { 'x-api-key': operatorKey }],
    ['an oversized header', { 'x-admin-key': 'x'.repeat(300) }],
  ])('refuses %s with 401 unauthorized, and leaves no operator on the request', async (_what, headers) => {
    const { request, context } = contextWith(headers);
    await expect(guard.canActivate(context)).rejects.toMatchObject({ status: 401, detail: { code: 'unauthorized' } });
    expect(request.operator).toBeUndefined();
  });
});
