import { CallHandler, ExecutionContext } from '@nestjs/common';
import { loadConfig } from '@partner/config';
import { firstValueFrom, of } from 'rxjs';
import { GatewayConfig } from '../config/gateway.config';
import { RateLimitInterceptor } from './rate-limit.interceptor';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit.store';

// Unit: the interceptor's decisions, with the partner on the request as ApiKeyGuard leaves it.
const config = loadConfig(GatewayConfig, { ...process.env, DATABASE_URL: 'postgresql://x@127.0.0.1/x', KAFKA_BROKERS: '127.0.0.1:1', RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' });

function call(interceptor: RateLimitInterceptor, partner?: { id: string }) {
  const headers: Record<string, string> = {};
  const context = {
    switchToHttp: () => ({ getRequest: () => ({ partner }), getResponse: () => ({ header: (k: string, v: string) => (headers[k] = v) }) }),
  } as unknown as ExecutionContext;
  const handler: CallHandler = { handle: () => of('handled') };
  return { result: firstValueFrom(interceptor.intercept(context, handler)), headers };
}

describe('RateLimitInterceptor', () => {
  it('lets a burst through, then answers 429 rate_limited with Retry-After', async () => {
    const interceptor = new RateLimitInterceptor(config, new MemoryRateLimitStore());
    const partner = { id: 'p1' };
    expect(await call(interceptor, partner).result).toBe('handled');
    expect(await call(interceptor, partner).result).toBe('handled');

    const third = call(interceptor, partner);
    await expect(third.result).rejects.toMatchObject({ status: 429, detail: { code: 'rate_limited', message: expect.stringContaining('at most 1 per second (bursts of 2)') } });
    expect(third.headers['retry-after']).toBe('1');
  });

  it('counts nothing for routes without a partner (health, admin)', async () => {
    const refuseAll: RateLimitStore = { take: async () => ({ allowed: false, retryAfterSeconds: 9 }) };
    expect(await call(new RateLimitInterceptor(config, refuseAll)).result).toBe('handled');
  });

  it('lets the request through when the shared store fails: a database hiccup is not a 429 or a 500', async () => {
    const broken: RateLimitStore = { take: async () => Promise.reject(new Error('connection terminated')) };
    expect(await call(new RateLimitInterceptor(config, broken), { id: 'p1' }).result).toBe('handled');
  });
});
