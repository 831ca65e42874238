import { randomUUID } from 'node:crypto';
import { ApiClient, ApiResponse, newCpf, newUuid, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { ACCOUNT_SHAPE } from './support/sandbox';

// The operator API (docs/api.md: "Operator API") on the production shape of the stack: two gateway instances
// started with SANDBOX=false (scripts/test/run.ts, OPERATOR_GATEWAY_URLS) in front of the same services,
// broker and database as the rest of the e2e run, their operator API on their operator ports
// (OPERATOR_GATEWAY_ADMIN_URLS) with a production operator key (PRODUCTION_ADMIN_API_KEY). No sandbox helper
// is used here: partners, keys, users and balances come only from /admin/v1.

const USDT = 1_000_000;
const MATIC_MEDIUM_FEE = 50_000;

const [first, second] = requireEnv('OPERATOR_GATEWAY_URLS').split(',');
/** The same two instances' operator ports. */
const [firstAdmin, secondAdmin] = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
const operatorKey = () => requireEnv('PRODUCTION_ADMIN_API_KEY');
const operator = (url = firstAdmin) => new ApiClient(url, { 'x-admin-key': operatorKey() });
const partnerOn = (url: string, apiKey: string) => new ApiClient(url, { 'x-api-key': apiKey });

/** Every operator call sends its own request id, so the audit log can be checked call by call. */
const calls: { requestId: string; method: string; status: number }[] = [];
async function call<T = Record<string, unknown>>(client: ApiClient, method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  const requestId = `e2e-op-${randomUUID()}`;
  const res = await client.request<T>(method, path, body, { 'x-request-id': requestId });
  calls.push({ requestId, method, status: res.status });
  return res;
}

/** Times are Unix seconds, as everywhere in the API. */
interface KeyView {
  id: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}
const isUnixSeconds = (value: unknown) => Number.isInteger(value) && Math.abs((value as number) - Date.now() / 1000) < 600;

async function newPartnerWithKey(name: string): Promise<{ id: string; key: { id: string; api_key: string } }> {
  const partner = await call<{ id: string }>(operator(), 'POST', '/admin/v1/partners', { name });
  expect(partner.status).toBe(201);
  const key = await call<{ id: string; api_key: string }>(operator(), 'POST', `/admin/v1/partners/${partner.body.id}/api-keys`);
  expect(key.status).toBe(201);
  return { id: partner.body.id, key: key.body };
}

describe('operator API on a SANDBOX=false stack with two gateway instances', () => {
  it('is what serves: the sandbox routes are not mounted', async () => {
    // Plain fetch: the document describes the sandbox routes of a SANDBOX=true gateway, not this 404.
    for (const path of ['/sandbox/v1/partners', '/sandbox/v1/users']) {
      const res = await fetch(`${first}${path}`, {
        method: 'POST',
        headers: { 'x-admin-key': operatorKey(), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
    }
  });

  it('onboards a partner: partner, key, user, credit, a withdrawal to settled; the balance reads back', async () => {
    const partner = await call<{ id: string; name: string; created_at: number }>(operator(), 'POST', '/admin/v1/partners', {
      name: 'Acme Pagamentos',
    });
    expect(partner.status).toBe(201);
    expect(partner.body).toEqual({ id: expect.any(String), name: 'Acme Pagamentos', created_at: expect.any(Number) });
    expect(isUnixSeconds(partner.body.created_at)).toBe(true);

    const key = await call<{ id: string; api_key: string; prefix: string; created_at: number }>(
      operator(),
      'POST',
      `/admin/v1/partners/${partner.body.id}/api-keys`,
    );
    expect(key.status).toBe(201);
    expect(key.body).toEqual({
      id: expect.any(String),
      api_key: expect.stringMatching(/^pk_live_/),
      prefix: expect.any(String),
      created_at: expect.any(Number),
    });
    expect(key.body.api_key.startsWith(key.body.prefix)).toBe(true);

    const document = newCpf();
    const user = await call<{ document: string; created_at: number }>(operator(), 'POST', `/admin/v1/partners/${partner.body.id}/users`, {
      document,
    });
    expect(user.status).toBe(201);
    expect(user.body).toEqual({
      document,
      created_at: expect.any(Number),
      account: ACCOUNT_SHAPE,
    });
    expect(isUnixSeconds(user.body.created_at)).toBe(true);
    // Registering again is not an error: 200, the same user.
    const again = await call(operator(secondAdmin), 'POST', `/admin/v1/partners/${partner.body.id}/users`, { document });
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: user.body });

    const credit = { usdt_micros: 10 * USDT, idempotency_key: `deposit-${newUuid()}`, reference: 'TED 4411' };
    const credited = await call(operator(), 'POST', `/admin/v1/partners/${partner.body.id}/users/${document}/credits`, credit);
    expect({ status: credited.status, body: credited.body }).toEqual({
      status: 201,
      body: { available_usdt_micros: 10 * USDT, held_usdt_micros: 0 },
    });
    // The same credit again (a retry, through the other instance): answered 200, not applied twice.
    const replayed = await call(operator(secondAdmin), 'POST', `/admin/v1/partners/${partner.body.id}/users/${document}/credits`, credit);
    expect({ status: replayed.status, body: replayed.body }).toEqual({
      status: 200,
      body: { available_usdt_micros: 10 * USDT, held_usdt_micros: 0 },
    });

    // The partner, with the key the operator issued, withdraws through the other instance and sees the feed.
    const api = partnerOn(second, key.body.api_key);
    const withdrawal = await api.post<{ id: number }>(
      '/partner/v1/withdrawals/usdt',
      withdrawalRequest(document, { usdtmicros: 4 * USDT, fee_choice: 'MEDIUM' }),
    );
    expect(withdrawal.status).toBe(201);
    const states = await pollUntil(
      'created, sent and settled in the partner feed',
      async () => {
        const res = await api.get<{ events: { type: string; resource_id: string; state: string }[] }>(
          '/partner/v1/events?type=usdt_withdrawal&limit=100',
        );
        return res.body.events.filter((e) => e.resource_id === String(withdrawal.body.id)).map((e) => e.state);
      },
      (seen) => seen.length === 3,
    );
    expect(states).toEqual(['created', 'sent', 'settled']);

    const balance = await call(operator(), 'GET', `/admin/v1/partners/${partner.body.id}/users/${document}/balance`);
    expect({ status: balance.status, body: balance.body }).toEqual({
      status: 200,
      body: {
        available_usdt_micros: 10 * USDT - 4 * USDT - MATIC_MEDIUM_FEE,
        held_usdt_micros: 0,
        available_brl_cents: 0,
        blocked_brl_cents: 0,
      },
    });
  });

  it('rotates a key without downtime: the new key works, the revoked one answers 401 on both instances within a second', async () => {
    const { id: partnerId, key: oldKey } = await newPartnerWithKey('rotating partner');
    // The old key is in use on both instances (so both have it cached).
    for (const url of [first, second]) expect((await partnerOn(url, oldKey.api_key).get('/partner/v1/events')).status).toBe(200);

    const newKey = await call<{ id: string; api_key: string }>(operator(), 'POST', `/admin/v1/partners/${partnerId}/api-keys`);
    expect(newKey.status).toBe(201);
    expect(newKey.body.api_key).not.toBe(oldKey.api_key);
    for (const url of [first, second]) {
      expect((await partnerOn(url, newKey.body.api_key).get('/partner/v1/events')).status).toBe(200);
      // Both keys work at once: the partner deploys the new one before the old is revoked.
      expect((await partnerOn(url, oldKey.api_key).get('/partner/v1/events')).status).toBe(200);
    }

    const revokedAt = Date.now();
    const revoked = await call<KeyView>(operator(), 'DELETE', `/admin/v1/partners/${partnerId}/api-keys/${oldKey.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: oldKey.id, revoked_at: expect.any(Number) });
    // Within one second of the revocation, on the instance that revoked it AND on the other one.
    await Promise.all(
      [first, second].map((url) =>
        pollUntil(
          `the revoked key refused on ${url}`,
          () => partnerOn(url, oldKey.api_key).get('/partner/v1/events'),
          (r) => r.status === 401,
          { timeoutMs: 1_000, intervalMs: 25 },
        ),
      ),
    );
    expect(Date.now() - revokedAt).toBeLessThan(1_500);
    for (const url of [first, second]) expect((await partnerOn(url, newKey.body.api_key).get('/partner/v1/events')).status).toBe(200);
    // Revoking again is idempotent.
    expect((await call(operator(secondAdmin), 'DELETE', `/admin/v1/partners/${partnerId}/api-keys/${oldKey.id}`)).status).toBe(200);

    const listed = await call<{ api_keys: KeyView[] }>(operator(secondAdmin), 'GET', `/admin/v1/partners/${partnerId}/api-keys`);
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.api_keys.map((k) => [k.id, k]));
    expect([...byId.keys()].sort()).toEqual([oldKey.id, newKey.body.id].sort());
    expect(isUnixSeconds(byId.get(oldKey.id)?.revoked_at)).toBe(true);
    expect(byId.get(newKey.body.id)?.revoked_at).toBeNull();
    expect(isUnixSeconds(byId.get(newKey.body.id)?.last_used_at)).toBe(true);
    // Never the key or anything derived from its secret part.
    const text = JSON.stringify(listed.body);
    for (const secret of [oldKey.api_key, newKey.body.api_key]) expect(text).not.toContain(secret);
    for (const k of listed.body.api_keys)
      expect(Object.keys(k).sort()).toEqual(['created_at', 'id', 'last_used_at', 'prefix', 'revoked_at']);
  });

  it('keeps the two kinds of key apart: a partner key cannot reach /admin/v1, the admin key cannot reach /partner/v1', async () => {
    const { key } = await newPartnerWithKey('separated partner');
    const asPartner = await call(
      new ApiClient(firstAdmin, { 'x-api-key': key.api_key, 'x-admin-key': key.api_key }),
      'GET',
      '/admin/v1/audit-log',
    );
    expect(asPartner.status).toBe(401);
    expect(asPartner.body).toMatchObject({ error: 'unauthorized' });
    const withoutKey = await call(new ApiClient(firstAdmin), 'POST', '/admin/v1/partners', { name: 'x' });
    expect(withoutKey.status).toBe(401);
    const asOperator = await new ApiClient(first, { 'x-api-key': operatorKey(), 'x-admin-key': operatorKey() }).get('/partner/v1/events');
    expect(asOperator.status).toBe(401);
    // The sandbox-mode gateway of the rest of the e2e run (npm test; a production Compose stack has none)
    // keeps them apart too.
    const sandboxGateway = process.env.GATEWAY_URL;
    if (sandboxGateway)
      expect((await new ApiClient(sandboxGateway, { 'x-api-key': key.api_key }).post('/sandbox/v1/partners', {})).status).toBe(401);
  });

  it('answers malformed or unknown input with the documented errors and changes nothing', async () => {
    const { id: partnerId } = await newPartnerWithKey('strict partner');
    const document = newCpf();
    const unknownPartner = await call(operator(), 'POST', `/admin/v1/partners/${newUuid()}/users`, { document });
    expect({ status: unknownPartner.status, error: unknownPartner.body.error }).toEqual({ status: 404, error: 'partner_not_found' });
    const badPartnerId = await call(operator(), 'GET', '/admin/v1/partners/not-a-uuid/api-keys');
    expect(badPartnerId.status).toBe(400);
    expect(badPartnerId.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    const badCpf = await call(operator(), 'POST', `/admin/v1/partners/${partnerId}/users`, { document: '12345678900' });
    expect(badCpf.status).toBe(400);
    expect(badCpf.body).toMatchObject({ error: 'invalid_document', field: 'document' });
    const noUser = await call(operator(), 'POST', `/admin/v1/partners/${partnerId}/users/${document}/credits`, {
      usdt_micros: USDT,
      idempotency_key: 'k-1',
      reference: 'r',
    });
    expect({ status: noUser.status, error: noUser.body.error }).toEqual({ status: 404, error: 'user_not_found' });
    expect((await call(operator(), 'GET', `/admin/v1/partners/${partnerId}/users/${document}/balance`)).status).toBe(404);

    expect((await call(operator(), 'POST', `/admin/v1/partners/${partnerId}/users`, { document })).status).toBe(201);
    for (const bad of [
      { usdt_micros: 1.5, idempotency_key: 'k', reference: 'r' },
      { usdt_micros: 0, idempotency_key: 'k', reference: 'r' },
      { usdt_micros: USDT, reference: 'r' },
      { usdt_micros: USDT, idempotency_key: 'k' },
    ]) {
      const res = await call(operator(), 'POST', `/admin/v1/partners/${partnerId}/users/${document}/credits`, bad);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: expect.objectContaining({ error: expect.any(String), field: expect.any(String) }),
      });
    }
    const credit = { usdt_micros: USDT, idempotency_key: 'same-key', reference: 'first' };
    expect((await call(operator(), 'POST', `/admin/v1/partners/${partnerId}/users/${document}/credits`, credit)).status).toBe(201);
    const reused = await call(operator(), 'POST', `/admin/v1/partners/${partnerId}/users/${document}/credits`, {
      ...credit,
      usdt_micros: 2 * USDT,
    });
    expect({ status: reused.status, error: reused.body.error }).toEqual({ status: 422, error: 'idempotency_key_reused' });
    const balance = await call(operator(), 'GET', `/admin/v1/partners/${partnerId}/users/${document}/balance`);
    expect(balance.body).toEqual({ available_usdt_micros: USDT, held_usdt_micros: 0, available_brl_cents: 0, blocked_brl_cents: 0 });
  });

  it('writes every call of this suite to the audit log: who, what, when, request id, status', async () => {
    expect(calls.length).toBeGreaterThan(20);
    const entries: {
      request_id: string;
      method: string;
      route: string;
      status_code: number;
      occurred_at: number;
      operator_key_id: string | null;
    }[] = [];
    let cursor: string | null = null;
    // Newest first, paged; this suite's calls are among the most recent ones.
    do {
      const page: ApiResponse<{ entries: typeof entries; next_cursor: string | null }> = await operator().get(
        `/admin/v1/audit-log?limit=200${cursor ? `&before=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      entries.push(...page.body.entries);
      cursor = page.body.next_cursor;
    } while (cursor && calls.some((c) => !entries.some((e) => e.request_id === c.requestId)) && entries.length < 5_000);
    for (const c of calls) {
      const entry = entries.find((e) => e.request_id === c.requestId);
      // A call refused for want of a valid operator key did nothing: counted on /metrics, not audited (ADR 0016).
      if (c.status === 401) {
        expect({ call: c, entry }).toEqual({ call: c, entry: undefined });
        continue;
      }
      expect({ call: c, entry }).toEqual({
        call: c,
        entry: expect.objectContaining({
          method: c.method,
          status_code: c.status,
          route: expect.stringMatching(/^\/admin\/v1\//),
          occurred_at: expect.any(Number),
        }),
      });
      // Who: the operator key of every audited call.
      expect(entry?.operator_key_id).not.toBeNull();
    }
  });
});
