import { Topics } from '@partner/contracts';
import { newCpf, requireEnv, withdrawalRequest } from '@partner/testing';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { FakeServices } from '../fake-services.spec-support';
import { GatewayUnderTest } from '../gateway-app.spec-support';

// Integration: the real gateway with the shared rate-limit store (RATE_LIMIT_STORE=postgres) in the real
// database, the services played in memory; the store made unreachable by renaming its function for a moment.

const ADMIN_KEY = `adm_int_${randomBytes(24).toString('base64url')}`;
const services = new FakeServices();
const gateway = new GatewayUnderTest({ bus: services, env: { SANDBOX: 'false', ADMIN_API_KEY: ADMIN_KEY, RATE_LIMIT_STORE: 'postgres' } });
const db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 1 });
const TAKE = 'gateway.take_rate_limit_token(TEXT, DOUBLE PRECISION, DOUBLE PRECISION)';

beforeAll(() => gateway.start(), 90_000);
afterAll(async () => {
  await gateway.stop();
  await db.end();
}, 30_000);

describe('the rate limit when its shared store cannot be reached', () => {
  it('refuses writes 503 with Retry-After and sends nothing to a service; serves reads', async () => {
    const admin = { 'x-admin-key': ADMIN_KEY };
    const partner = await gateway.send('POST', '/admin/v1/partners', admin, { name: 'store down' });
    const key = await gateway.send('POST', `/admin/v1/partners/${String(partner.body.id)}/api-keys`, admin);
    const asPartner = { 'x-api-key': String(key.body.api_key) };
    // The key works and is cached before the store goes away.
    expect((await gateway.send('GET', '/partner/v1/withdrawals/usdt/1', asPartner)).status).toBe(404);

    await db.query(`ALTER FUNCTION ${TAKE} RENAME TO take_rate_limit_token_away`);
    try {
      const before = services.sentTo(Topics.WithdrawalsCreate).length;
      const write = await gateway.post('/partner/v1/withdrawals/usdt', withdrawalRequest(newCpf()), asPartner);
      expect([write.status, write.body.error, write.headers['retry-after']]).toEqual([503, 'service_unavailable', '1']);
      expect(String(write.body.message)).toContain('nothing was done');
      expect(services.sentTo(Topics.WithdrawalsCreate)).toHaveLength(before);
      // A read is served, without a RateLimit field (the level is unknown).
      const read = await gateway.send('GET', '/partner/v1/withdrawals/usdt/1', asPartner);
      expect([read.status, read.headers.ratelimit]).toEqual([404, undefined]);
    } finally {
      await db.query(
        'ALTER FUNCTION gateway.take_rate_limit_token_away(TEXT, DOUBLE PRECISION, DOUBLE PRECISION) RENAME TO take_rate_limit_token',
      );
    }
    // The store back: the same write goes through.
    const again = await gateway.post('/partner/v1/withdrawals/usdt', withdrawalRequest(newCpf()), asPartner);
    expect(again.status).not.toBe(503);
    expect(again.headers.ratelimit).toBeDefined();
  });
});
