import { ApiClient, newUuid, requireEnv, withdrawalRequest } from '@partner/testing';
import { gatewayAdminUrl, gatewayUrl, limitedPartner, newPartner, newUser } from './support/sandbox';

/**
 * The headers integrators rely on (docs/api.md: "Headers"), on the real stack: Idempotent-Replayed on a
 * replayed answer only; RateLimit-Policy and RateLimit on every answer past the key check, success or
 * error, the level going down with each request; Retry-After on a 429. Partner and operator ports.
 */

/** The `r` of a RateLimit field, or NaN. */
const remainingOf = (field: string | null): number => Number(/;r=(\d+)/.exec(field ?? '')?.[1]);

describe('headers integrators rely on', () => {
  it('marks a replayed withdrawal Idempotent-Replayed: true, and never its first execution', async () => {
    const { api } = await newPartner('replays');
    const document = await newUser(api, 5_000_000);
    const request = withdrawalRequest(document);
    const first = await api.post('/partner/v1/withdrawals/usdt', request);
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    const again = await api.post('/partner/v1/withdrawals/usdt', request);
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([200, 'true', first.body]);
  });

  it('marks replayed Pix key creations and deletions, and not their first executions', async () => {
    const { api } = await newPartner('pix replays');
    const document = await newUser(api, 0);
    const create = { document, idempotency_key: newUuid() };
    const created = await api.post('/partner/v1/pix-key', create);
    expect([created.status, created.headers.get('idempotent-replayed')]).toEqual([202, null]);
    const createdAgain = await api.post('/partner/v1/pix-key', create);
    expect([createdAgain.status, createdAgain.headers.get('idempotent-replayed'), createdAgain.body]).toEqual([
      202,
      'true',
      { status: 'accepted' },
    ]);

    const remove = { idempotency_key: newUuid() };
    const deleted = await api.request('DELETE', `/partner/v1/pix-key/${document}`, remove);
    expect(deleted.status).toBeLessThan(300);
    expect(deleted.headers.get('idempotent-replayed')).toBeNull();
    const deletedAgain = await api.request('DELETE', `/partner/v1/pix-key/${document}`, remove);
    expect([deletedAgain.status, deletedAgain.headers.get('idempotent-replayed'), deletedAgain.body]).toEqual([
      deleted.status,
      'true',
      deleted.body,
    ]);
  });

  it('tells every answer past the key check its bucket, going down with each request, on errors and on the 429 with Retry-After', async () => {
    // 1 per second in bursts of 4: an empty bucket takes 4 s to fill.
    const api = await limitedPartner(1, 4);
    const ok = await api.get('/partner/v1/events?limit=1');
    const invalid = await api.get('/partner/v1/events?limit=zero');
    const missing = await api.get(`/partner/v1/withdrawals/usdt/999999999`);
    expect([ok.status, invalid.status, missing.status]).toEqual([200, 400, 404]);
    for (const res of [ok, invalid, missing]) {
      expect(res.headers.get('ratelimit-policy')).toBe('"partner";q=4;w=4');
      expect(res.headers.get('ratelimit')).toMatch(/^"partner";r=\d+;t=\d+$/);
    }
    const levels = [ok, invalid, missing].map((res) => remainingOf(res.headers.get('ratelimit')));
    // Each took a token (a refill of 1/s may give one back between two of them, never more than the time taken).
    expect(levels[0]).toBe(3);
    expect(levels[2]).toBeLessThan(levels[0]);

    const burst = await Promise.all(Array.from({ length: 6 }, () => api.get('/partner/v1/events?limit=1')));
    const limited = burst.filter((res) => res.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const res of limited) {
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect(res.headers.get('ratelimit-policy')).toBe('"partner";q=4;w=4');
      expect(remainingOf(res.headers.get('ratelimit'))).toBe(0);
    }
    // No header of the bucket before the key is known (401): nothing was counted.
    const unknownKey = await new ApiClient(gatewayUrl(), { 'x-api-key': 'pk_sandbox_not_a_key' }).get('/partner/v1/events');
    expect([unknownKey.status, unknownKey.headers.get('ratelimit')]).toEqual([401, null]);
  });

  it("tells the operator port's answers the operator key's bucket", async () => {
    const admin = new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
    const first = await admin.get('/admin/v1/audit-log?limit=1');
    const second = await admin.get('/admin/v1/partners/not-a-uuid/users/52998224725/balance');
    expect([first.status, second.status]).toEqual([200, 400]);
    for (const res of [first, second]) {
      expect(res.headers.get('ratelimit-policy')).toMatch(/^"operator";q=\d+;w=\d+$/);
      expect(res.headers.get('ratelimit')).toMatch(/^"operator";r=\d+;t=\d+$/);
    }
  });

  it("serves the operator document on the operator port, the Pix provider's on the public port, and the partner document without either's paths", async () => {
    // Plain fetch: the documents are no operation of the API (the response contract checks operations).
    const operatorAnswer = await fetch(`${gatewayAdminUrl()}/admin/docs/openapi.json`);
    expect(operatorAnswer.status).toBe(200);
    const operator = (await operatorAnswer.json()) as { paths: Record<string, unknown>; info: { title: string } };
    expect(operator.info.title).toContain('Operator API');
    expect(Object.keys(operator.paths)).toEqual(expect.arrayContaining(['/admin/v1/partners', '/admin/v1/audit-log']));
    const partner = (await (await fetch(`${gatewayUrl()}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(partner.paths).filter((p) => p.startsWith('/admin') || p.startsWith('/provider'))).toEqual([]);
    const provider = (await (await fetch(`${gatewayUrl()}/provider/docs/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
      info: { title: string };
    };
    expect([provider.info.title, Object.keys(provider.paths)]).toEqual([
      expect.stringContaining('Pix provider'),
      ['/provider/v2/pix/inflows'],
    ]);
    expect((await fetch(`${gatewayUrl()}/provider/docs/openapi.yaml`)).status).toBe(200);
    // The public port does not answer the operator document, nor the operator port the provider's.
    expect((await fetch(`${gatewayUrl()}/admin/docs/openapi.json`)).status).toBe(404);
    expect((await fetch(`${gatewayAdminUrl()}/provider/docs/openapi.json`)).status).toBe(404);
  });
});
