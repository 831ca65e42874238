import { loadConfig } from '@partner/config';
import { newUuid, pollUntil, requireEnv } from '@partner/testing';
import { Database } from '@partner/db';
import { GatewayConfig } from '../config/gateway.config';
import { DB_SCHEMA } from '../database/db-schema';
import { RateLimitBucketRepository } from './rate-limit-bucket.repository';

// Integration against the real gateway schema. Two Databases (two pools) stand for two gateway
// instances behind a load balancer: the point of the shared store is that together they allow the
// partner's limit once, not twice.
const config = loadConfig(GatewayConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') });
const dbA = new Database(config, DB_SCHEMA);
const dbB = new Database(config, DB_SCHEMA);
const gatewayA = new RateLimitBucketRepository(dbA);
const gatewayB = new RateLimitBucketRepository(dbB);

// Open both pools' first connection before any test: a connection opened mid-test takes long enough on a
// loaded machine for a bucket to refill between two takes the test means to be back to back.
beforeAll(async () => {
  await Promise.all([gatewayA.take(newUuid(), { perSecond: 1, burst: 1 }), gatewayB.take(newUuid(), { perSecond: 1, burst: 1 })]);
});

afterAll(async () => {
  await dbA.close();
  await dbB.close();
});

describe('RateLimitBucketRepository (PostgreSQL, shared by every gateway instance)', () => {
  it('lets two instances together take exactly one burst, however their requests interleave', async () => {
    const partnerId = newUuid();
    const limit = { perSecond: 0.01, burst: 10 }; // no refill worth a token during the test

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? gatewayA : gatewayB).take(partnerId, limit)));

    expect(answers.filter((a) => a.allowed)).toHaveLength(10);
    // 1 token back takes 100 s at 0.01/s: the refused are told so, in whole seconds.
    const refused = answers.filter((a) => !a.allowed);
    expect(refused).toHaveLength(30);
    for (const r of refused)
      expect(r).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number), remaining: 0, resetSeconds: expect.any(Number) });
    expect(Math.min(...refused.map((r) => (r.allowed ? 0 : r.retryAfterSeconds)))).toBeGreaterThanOrEqual(99);
  });

  it('refills at the sustained rate, up to the burst', async () => {
    const partnerId = newUuid();
    // 2/s: a token takes 500 ms to come back, so the three back-to-back takes see an empty bucket even on
    // a loaded machine (at 20/s, 50 ms between two takes was enough for CI to see a refill).
    const limit = { perSecond: 2, burst: 2 };
    await gatewayA.take(partnerId, limit);
    await gatewayB.take(partnerId, limit);
    expect(await gatewayA.take(partnerId, limit)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });

    // 2/s: a token is back within 500 ms, on whichever instance asks.
    await pollUntil(
      'a refilled token',
      () => gatewayB.take(partnerId, limit),
      (t) => t.allowed,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
  });

  it('keeps one bucket per partner: one partner hammering does not slow another', async () => {
    const [a, b] = [newUuid(), newUuid()];
    const limit = { perSecond: 0.01, burst: 1 };
    // The level comes back with the take itself: no bucket left, full again in 100 s at 0.01/s.
    expect(await gatewayA.take(a, limit)).toEqual({ allowed: true, remaining: 0, resetSeconds: 100 });
    expect((await gatewayB.take(a, limit)).allowed).toBe(false);
    expect(await gatewayB.take(b, limit)).toMatchObject({ allowed: true });
  });
});
