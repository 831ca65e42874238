import { Topics } from '@partner/contracts';
import { requireEnv } from '@partner/testing';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { FakeServices } from './fake-services.spec-support';
import { GatewayUnderTest } from './gateway-app.spec-support';

// Integration: disabling and re-enabling a partner on a production gateway against the real database (the
// services played in memory). Cross-instance propagation over Kafka is proven by the e2e suite
// tools/e2e/src/operator-partners.spec.ts on the two production instances of the test stack.

const ADMIN_KEY = `adm_int_${randomBytes(24).toString('base64url')}`;
const gateway = new GatewayUnderTest({
  bus: new FakeServices(),
  env: { SANDBOX: 'false', ADMIN_API_KEY: ADMIN_KEY, ADMIN_RATE_LIMIT_PER_SECOND: '100000', ADMIN_RATE_LIMIT_BURST: '100000' },
});
const db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2 });
const admin = { 'x-admin-key': ADMIN_KEY };

beforeAll(() => gateway.start(), 90_000);
afterAll(async () => {
  await gateway.stop();
  await db.end();
}, 30_000);

describe('disabling a partner', () => {
  it('refuses its cached key at once on this instance, writes one event per real change in the outbox, and keeps its key', async () => {
    const partner = await gateway.send('POST', '/admin/v1/partners', admin, { name: 'to disable' });
    const partnerId = String(partner.body.id);
    const key = await gateway.send('POST', `/admin/v1/partners/${partnerId}/api-keys`, admin);
    const apiKey = String(key.body.api_key);
    // 404 from the fake withdrawals service: the key was accepted (and is cached now).
    const partnerCall = () => gateway.send('GET', '/partner/v1/withdrawals/usdt/1', { 'x-api-key': apiKey });
    expect((await partnerCall()).status).toBe(404);

    const disabled = await gateway.send('POST', `/admin/v1/partners/${partnerId}/disable`, admin);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', active_api_keys: 1 });
    const refused = await partnerCall();
    expect([refused.status, refused.body.error]).toEqual([403, 'partner_disabled']);
    expect((await gateway.send('POST', `/admin/v1/partners/${partnerId}/disable`, admin)).body).toEqual(disabled.body);

    const enabled = await gateway.send('POST', `/admin/v1/partners/${partnerId}/enable`, admin);
    expect(enabled.body).toMatchObject({ status: 'active', disabled_at: null, active_api_keys: 1 });
    expect((await partnerCall()).status).toBe(404);
    expect((await gateway.send('POST', `/admin/v1/partners/${partnerId}/disable`, admin, { reason: 'x' })).status).toBe(400);

    const { rows } = await db.query('SELECT topic, key, payload FROM gateway.outbox_messages WHERE key = $1 ORDER BY id', [partnerId]);
    expect(rows).toEqual([
      {
        topic: Topics.GatewayPartnerStatusChanged,
        key: partnerId,
        payload: { partner_id: partnerId, status: 'disabled', changed_at: expect.any(String) },
      },
      {
        topic: Topics.GatewayPartnerStatusChanged,
        key: partnerId,
        payload: { partner_id: partnerId, status: 'active', changed_at: expect.any(String) },
      },
    ]);
  });
});
