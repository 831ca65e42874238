import { ApiClient, requireEnv } from '@partner/testing';
import { randomBytes } from 'node:crypto';

// docs/api.md "Authentication" (ADR 0016): a flood of made-up keys is answered 401, then 429 with
// Retry-After once its address has caused AUTH_FAILURE_BURST failed lookups, while an honest partner
// keeps being served. Against one of the production-shaped gateway instances (SANDBOX=false), which run
// with the default AUTH_FAILURES_* (the main e2e gateway raises them: every suite shares one address).
// The flood comes from an address of its own (X-Forwarded-For), so other suites on this instance are
// not throttled by it.

const url = requireEnv('OPERATOR_GATEWAY_URLS').split(',')[0];
// The operator API, /metrics and /readyz answer on the instance's operator port only, with a production key.
const adminUrl = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',')[0];
const admin = new ApiClient(adminUrl, { 'x-admin-key': requireEnv('PRODUCTION_ADMIN_API_KEY') });
const FLOOD_ADDRESS = '198.51.100.23';
const madeUpKey = () => `pk_live_${randomBytes(32).toString('base64url')}`;

/** gateway_auth_failures_total{api="partner",status} on the instance's /metrics (its operator port). */
async function partnerRefusals(status: '401' | '429'): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('gateway_auth_failures_total{') && l.includes('api="partner"') && l.includes(`status="${status}"`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('a flood of made-up API keys', () => {
  it('gets 401, then 429 with Retry-After without a lookup, while an honest partner keeps succeeding', async () => {
    const partner = await admin.post<{ id: string }>('/admin/v1/partners', { name: 'honest under flood' });
    expect(partner.status).toBe(201);
    const key = await admin.post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`);
    expect(key.status).toBe(201);
    const honest = new ApiClient(url, { 'x-api-key': key.body.api_key });
    expect((await honest.get('/partner/v1/events?limit=1')).status).toBe(200);
    const throttledBefore = await partnerRefusals('429');

    let flooding = true;
    const honestAnswers: number[] = [];
    const honestLoop = (async () => {
      while (flooding) honestAnswers.push((await honest.get('/partner/v1/events?limit=1')).status);
    })();
    const flood: Array<{ status: number; retryAfter: string | null }> = [];
    const flooder = new ApiClient(url, { 'x-forwarded-for': FLOOD_ADDRESS });
    try {
      for (let wave = 0; wave < 10; wave++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => flooder.withHeaders({ 'x-api-key': madeUpKey() }).get('/partner/v1/events?limit=1')),
        );
        for (const a of answers) flood.push({ status: a.status, retryAfter: a.headers.get('retry-after') });
      }
    } finally {
      flooding = false;
      await honestLoop;
    }

    const statuses = new Set(flood.map((a) => a.status));
    expect([...statuses].sort()).toEqual([401, 429]);
    for (const a of flood.filter((f) => f.status === 429)) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    // Most of the flood never reached the database: the burst (20) and what refilled meanwhile did.
    expect(flood.filter((a) => a.status === 429).length).toBeGreaterThan(flood.length / 2);
    expect(await partnerRefusals('429')).toBeGreaterThan(throttledBefore);
    // The honest partner was served throughout, the flood's address included once its key is cached.
    expect(honestAnswers.length).toBeGreaterThan(0);
    expect(honestAnswers.filter((s) => s !== 200)).toEqual([]);
    const fromTheFloodingAddress = await new ApiClient(url, { 'x-api-key': key.body.api_key, 'x-forwarded-for': FLOOD_ADDRESS }).get(
      '/partner/v1/events?limit=1',
    );
    expect(fromTheFloodingAddress.status).toBe(200);
  }, 120_000);
});
