import { loadConfig } from '@partner/config';
import { GatewayConfig } from '../config/gateway.config';
import { httpContext, recordingReply } from '../http/http-context.spec-support';
import { RateLimitGuard } from './rate-limit.guard';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit.store';

// Unit: the guard's decisions, with the partner on the request as ApiKeyGuard leaves it.
const config = loadConfig(GatewayConfig, {
  ...process.env,
  DATABASE_URL: 'postgresql://x@127.0.0.1/x',
  KAFKA_BROKERS: '127.0.0.1:1',
  RATE_LIMIT_PER_SECOND: '1',
  RATE_LIMIT_BURST: '2',
  ADMIN_RATE_LIMIT_PER_SECOND: '1',
  ADMIN_RATE_LIMIT_BURST: '3',
});

function call(guard: RateLimitGuard, partner?: { id: string }, operator?: { id: string }, method = 'GET') {
  const { reply, sent } = recordingReply();
  return { result: guard.canActivate(httpContext({ partner, operator, method }, reply)), headers: sent.headers };
}

describe('RateLimitGuard', () => {
  it('lets a burst through, then answers 429 rate_limited with Retry-After', async () => {
    const guard = new RateLimitGuard(config, new MemoryRateLimitStore());
    const partner = { id: 'p1' };
    expect(await call(guard, partner).result).toBe(true);
    expect(await call(guard, partner).result).toBe(true);

    const third = call(guard, partner);
    await expect(third.result).rejects.toMatchObject({
      status: 429,
      detail: { code: 'rate_limited', message: expect.stringContaining('at most 1 per second (bursts of 2)') },
    });
    expect(third.headers['retry-after']).toBe('1');
  });

  it('tells every answer, allowed or refused, the policy and what is left (RateLimit-Policy, RateLimit)', async () => {
    const guard = new RateLimitGuard(config, new MemoryRateLimitStore());
    const partner = { id: 'p1' };
    const answers = [call(guard, partner), call(guard, partner), call(guard, partner)];
    await Promise.allSettled(answers.map((a) => a.result));
    // Bursts of 2 at 1/s: an empty bucket fills in 2 s; after one take, 1 left and 1 s to full.
    expect(answers.map((a) => a.headers['ratelimit-policy'])).toEqual(Array(3).fill('"partner";q=2;w=2'));
    expect(answers.map((a) => a.headers.ratelimit)).toEqual(['"partner";r=1;t=1', '"partner";r=0;t=2', '"partner";r=0;t=2']);
    const operator = call(guard, undefined, { id: 'o1' });
    await operator.result;
    expect(operator.headers).toMatchObject({ 'ratelimit-policy': '"operator";q=3;w=3', ratelimit: '"operator";r=2;t=1' });
  });

  it('limits each operator key in a bucket of its own, with the ADMIN_RATE_LIMIT_* limit', async () => {
    const taken: string[] = [];
    const memory = new MemoryRateLimitStore();
    const store: RateLimitStore = { take: (bucket, limit) => (taken.push(bucket), memory.take(bucket, limit)) };
    const guard = new RateLimitGuard(config, store);
    for (let i = 0; i < 3; i++) expect(await call(guard, undefined, { id: 'o1' }).result).toBe(true);
    await expect(call(guard, undefined, { id: 'o1' }).result).rejects.toMatchObject({
      status: 429,
      detail: { message: expect.stringContaining('bursts of 3') },
    });
    expect(await call(guard, { id: 'o1' }).result).toBe(true);
    expect(new Set(taken)).toEqual(new Set(['operator:o1', 'o1']));
  });

  it('counts nothing for routes without a partner or an operator (health, sandbox partner creation)', async () => {
    const refuseAll: RateLimitStore = { take: async () => ({ allowed: false, retryAfterSeconds: 9, remaining: 0, resetSeconds: 9 }) };
    expect(await call(new RateLimitGuard(config, refuseAll)).result).toBe(true);
  });

  it('lets a read through when the shared store fails: a database hiccup is not a 429 or a 500', async () => {
    const broken: RateLimitStore = { take: async () => Promise.reject(new Error('connection terminated')) };
    const answer = call(new RateLimitGuard(config, broken), { id: 'p1' });
    expect(await answer.result).toBe(true);
    // The level is unknown then: the policy alone, no made-up RateLimit.
    expect(answer.headers).toEqual({ 'ratelimit-policy': '"partner";q=2;w=2' });
  });

  it('refuses a write 503 service_unavailable when the shared store fails: an unlimited caller moves nothing', async () => {
    const broken: RateLimitStore = { take: async () => Promise.reject(new Error('connection terminated')) };
    const guard = new RateLimitGuard(config, broken);
    for (const method of ['POST', 'DELETE', 'PUT', 'PATCH'])
      await expect(call(guard, { id: 'p1' }, undefined, method).result).rejects.toMatchObject({
        status: 503,
        detail: { code: 'service_unavailable', message: expect.stringContaining('nothing was done') },
      });
    await expect(call(guard, undefined, { id: 'o1' }, 'POST').result).rejects.toMatchObject({ status: 503 });
    expect(await call(guard, { id: 'p1' }, undefined, 'HEAD').result).toBe(true);
  });
});
