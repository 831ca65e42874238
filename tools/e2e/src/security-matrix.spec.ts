import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { ApiClient, ApiResponse, newUuid, pollUntil, requireEnv, VALID_ADDRESS } from '@partner/testing';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { balanceOf, FeedEvent, gatewayUrl, limitedPartner, listEvents, newPartner, newUser } from './support/sandbox';

// Security (issue #4): every endpoint called by partner B against partner A's identifiers sees nothing
// of A's and changes nothing of A's; API keys are stored only hashed; each partner is rate limited.

const USDT = 1_000_000;
const withdrawal = (document: string, idempotencyKey = newUuid()) => ({
  document,
  idempotency_key: idempotencyKey,
  address: VALID_ADDRESS,
  usdtmicros: USDT,
  fee_choice: 'LOW',
  network: 'MATIC',
});
const customer = (cnpj: string) => ({ ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE), cnpj });
const allEvents = (api: ApiClient) => listEvents(api, 'limit=1000');
const TERMINAL: Record<string, string[]> = {
  usdt_withdrawal: ['settled', 'failed'],
  pix_key: ['registered'],
  pix_in: ['credited', 'denied', 'failed'],
  business_customer: ['registered'],
};
/** Every resource of the feed has reached the state it settles in. */
const settled = (events: FeedEvent[], types: string[]) =>
  types.every((type) => {
    const resources = new Set(events.filter((e) => e.type === type).map((e) => e.resource_id));
    return resources.size > 0 && [...resources].every((id) => events.some((e) => e.resource_id === id && TERMINAL[type].includes(e.state)));
  });

/** What partner A can observe of its own resources. */
async function snapshot(api: ApiClient, document: string) {
  const events = await allEvents(api);
  const pixIn = await api.get<{ pix_in: unknown[] }>('/partner/v1/pix-in');
  return {
    balance: await balanceOf(api, document),
    events: events.map((e) => ({ id: e.id, type: e.type, state: e.state, resource_id: e.resource_id, delivered: e.delivered })),
    pixIn: pixIn.body.pix_in,
  };
}

describe('security matrix: partner B against partner A', () => {
  it("B sees nothing of A's and changes nothing of A's, on every endpoint", async () => {
    const a = await newPartner('matrix A');
    const b = await newPartner('matrix B');

    // A: a user with a balance, a withdrawal, a registered Pix key, a Pix inflow, a business customer.
    const document = await newUser(a.api, 10 * USDT);
    const withdrawalKey = newUuid();
    const created = await a.api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawal(document, withdrawalKey));
    expect(created.status).toBe(201);
    expect((await a.api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() })).status).toBe(202);
    expect((await a.api.post('/sandbox/v1/pix-in', { document, amount_cents: 1_500, method: 'manual' })).status).toBe(202);
    const cnpj = generateCnpj({ version: 2 });
    const aCustomer = await a.api.post<{ id: string }>('/partner/v1/customers/business', customer(cnpj));
    expect(aCustomer.status).toBe(201);
    await pollUntil(
      "A's resources settled in its feed",
      () => allEvents(a.api),
      (events) => settled(events, Object.keys(TERMINAL)),
    );
    const before = await snapshot(a.api, document);
    expect(before.pixIn).toHaveLength(1);
    const aEventIds = before.events.map((e) => e.id);

    const expectAnswer = (res: ApiResponse, status: number, body: Record<string, unknown>) =>
      expect({ status: res.status, body: res.body }).toEqual({
        status,
        body: { ...body, message: expect.any(String), request_id: expect.any(String) },
      });
    /** B reading A's resources by their identifiers: 404 in the family's shape, exactly like an id that does not exist. */
    const expectBCannotRead = async () => {
      const reads: Array<[string, Record<string, unknown>]> = [
        [`/partner/v1/withdrawals/usdt/${created.body.id}`, { error: 'not_found' }],
        [`/partner/v1/pix-key/${document}`, { status: 'not_found' }],
        [`/partner/v1/customers/business/${aCustomer.body.id}`, { error: 'not_found' }],
      ];
      for (const [path, code] of reads) {
        const res = await b.api.get(path);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: expect.objectContaining({ ...code, message: expect.any(String) }),
        });
      }
    };

    // Withdrawals: A's user does not exist for B.
    expectAnswer(await b.api.post('/partner/v1/withdrawals/usdt', withdrawal(document)), 404, { error: 'user_not_found' });
    // Pix keys: neither A's user nor A's key exist for B.
    expectAnswer(await b.api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() }), 404, { status: 'user_not_found' });
    expectAnswer(await b.api.request('DELETE', `/partner/v1/pix-key/${document}`, { idempotency_key: newUuid() }), 404, {
      status: 'not_found',
    });
    // Sandbox: B cannot send a Pix to A's user.
    expectAnswer(await b.api.post('/sandbox/v1/pix-in', { document, amount_cents: 100, method: 'manual' }), 404, {
      error: 'user_not_found',
    });
    // Listings: empty, whatever the filter.
    expect((await b.api.get('/partner/v1/pix-in')).body).toEqual({ pix_in: [] });
    for (const query of ['', 'delivered=false', 'delivered=true', 'limit=1000']) {
      expect({ query, events: await listEvents(b.api, query) }).toEqual({ query, events: [] });
    }
    // Lists (docs/api.md "Lists"): empty, also filtered by A's CPF or CNPJ; A's user has no balance for B.
    for (const path of [
      '/partner/v1/withdrawals/usdt',
      `/partner/v1/withdrawals/usdt?document=${document}`,
      '/partner/v1/pix-key',
      `/partner/v1/pix-key?document=${document}`,
      '/partner/v1/customers/business',
      `/partner/v1/customers/business?cnpj=${cnpj}`,
    ]) {
      const res = await b.api.get<Record<string, unknown>>(path);
      expect({ path, status: res.status, items: Object.values(res.body).find(Array.isArray), next_cursor: res.body.next_cursor }).toEqual({
        path,
        status: 200,
        items: [],
        next_cursor: null,
      });
    }
    expectAnswer(await b.api.get(`/partner/v1/users/${document}/balance`), 404, { error: 'user_not_found' });
    // Events: A's ids are unknown to B, so B cannot mark them delivered.
    for (const id of aEventIds) expectAnswer(await b.api.patch(`/partner/v1/events/${id}`), 404, { error: 'not_found' });
    // Reads by id: A's withdrawal, key and customer do not exist for B.
    await expectBCannotRead();

    // B's own resources under A's identifiers are B's alone: the same CPF as a user of B, A's withdrawal
    // idempotency key, A's CNPJ as B's customer.
    expect((await b.api.post('/sandbox/v1/users', { document, usdt_micros: 5 * USDT })).status).toBe(201);
    const bWithdrawal = await b.api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawal(document, withdrawalKey));
    expect(bWithdrawal.status).toBe(201);
    expect(bWithdrawal.body.id).not.toBe(created.body.id);
    const bCustomer = await b.api.post<{ id: string }>('/partner/v1/customers/business', customer(cnpj));
    expect(bCustomer.status).toBe(201);
    const bEvents = await pollUntil(
      "B's resources settled in its feed",
      () => allEvents(b.api),
      (events) => settled(events, ['usdt_withdrawal', 'business_customer']),
    );
    expect(bEvents.filter((e) => aEventIds.includes(e.id))).toEqual([]);
    expect(new Set(bEvents.map((e) => e.resource_id))).toEqual(new Set([String(bWithdrawal.body.id), bCustomer.body.id]));
    expect(await balanceOf(b.api, document)).toBeLessThan(5 * USDT);
    // Still not, now that B has a user with that CPF and a customer with that CNPJ; B reads its own.
    await expectBCannotRead();
    expect(await b.api.get(`/partner/v1/withdrawals/usdt/${bWithdrawal.body.id}`)).toMatchObject({
      status: 200,
      body: { id: bWithdrawal.body.id, document },
    });
    expect(await b.api.get(`/partner/v1/customers/business/${bCustomer.body.id}`)).toMatchObject({
      status: 200,
      body: { id: bCustomer.body.id, cnpj },
    });

    // A afterwards: same balance, same events (still undelivered), same inflows, key and customer still A's.
    expect(await snapshot(a.api, document)).toEqual(before);
    expect(before.events.every((e) => !e.delivered)).toBe(true);
    expectAnswer(await a.api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() }), 409, { status: 'already_exists' });
    // The 409 names A's own customer, never B's of the same CNPJ.
    expectAnswer(await a.api.post('/partner/v1/customers/business', customer(cnpj)), 409, {
      error: 'already_exists',
      field: 'cnpj',
      id: aCustomer.body.id,
    });
    const replay = await a.api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawal(document, withdrawalKey));
    expect({ status: replay.status, id: replay.body.id }).toEqual({ status: 200, id: created.body.id });
    // A reads its own: the withdrawal settled, the key registered, the customer its own.
    expect(await a.api.get(`/partner/v1/withdrawals/usdt/${created.body.id}`)).toMatchObject({
      status: 200,
      body: { id: created.body.id, document, state: 'settled' },
    });
    expect(await a.api.get(`/partner/v1/pix-key/${document}`)).toMatchObject({ status: 200, body: { document, status: 'registered' } });
    expect(await a.api.get(`/partner/v1/customers/business/${aCustomer.body.id}`)).toMatchObject({
      status: 200,
      body: { id: aCustomer.body.id, cnpj },
    });
  });
});

describe('API keys at rest', () => {
  it('are stored only as their SHA-256: no row holds the key itself', async () => {
    const { id, apiKey } = await newPartner('hashed keys');
    const db = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await db.connect();
    try {
      const keys = await db.query('SELECT * FROM gateway.api_keys WHERE partner_id = $1', [id]);
      const partners = await db.query('SELECT * FROM gateway.partners WHERE id = $1', [id]);
      expect(keys.rows).toHaveLength(1);
      expect(keys.rows[0].hash.trim()).toBe(createHash('sha256').update(apiKey, 'utf8').digest('hex'));
      expect(apiKey.startsWith(keys.rows[0].prefix)).toBe(true);
      expect(keys.rows[0].prefix.length).toBeLessThan(apiKey.length / 2);
      expect(JSON.stringify([keys.rows, partners.rows])).not.toContain(apiKey);
      const anywhere = await db.query("SELECT count(*)::int AS n FROM gateway.api_keys k WHERE k::text LIKE '%' || $1 || '%'", [apiKey]);
      expect(anywhere.rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });
});

describe('rate limiting (per partner)', () => {
  const admin = () => new ApiClient(gatewayUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

  it('answers 429 rate_limited with Retry-After past the burst, in each family shape; other partners are not slowed', async () => {
    const api = await limitedPartner(1, 3);
    const other = (await newPartner('unlimited neighbour')).api;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.get('/partner/v1/events?limit=1')));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    // The burst of 3 passes, plus what refilled (1/s) while the requests were being answered; the rest is refused.
    expect(ok.length).toBeGreaterThanOrEqual(3);
    expect(ok.length).toBeLessThanOrEqual(3 + Math.ceil(elapsedSeconds));
    expect(limited.length).toBe(10 - ok.length);
    for (const res of limited) {
      expect(res.body).toMatchObject({ error: 'rate_limited', message: expect.any(String) });
      const retryAfter = res.headers.get('retry-after');
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    }
    // The Pix key family answers in its own shape; a batch so that a token refilled meanwhile cannot hide it.
    const pixKeys = await Promise.all(
      Array.from({ length: 5 }, () => api.post('/partner/v1/pix-key', { document: '52998224725', idempotency_key: newUuid() })),
    );
    const pixLimited = pixKeys.filter((r) => r.status === 429);
    expect(pixLimited.length).toBeGreaterThan(0);
    for (const res of pixLimited) expect(res.body).toMatchObject({ status: 'rate_limited', message: expect.any(String) });
    expect((await other.get('/partner/v1/events?limit=1')).status).toBe(200);

    // The bucket refills at the partner's rate: after Retry-After the partner is served again.
    const again = await pollUntil(
      'the limited partner served again',
      () => api.get('/partner/v1/events?limit=1'),
      (r) => r.status === 200,
      { timeoutMs: 5_000, intervalMs: 500 },
    );
    expect(again.body).toEqual({ events: [], next_cursor: expect.any(String) });
  });

  it('does not count requests that fail authentication, and refuses a limit below 1', async () => {
    const api = await limitedPartner(1, 1);
    const wrongKey = new ApiClient(gatewayUrl(), { 'x-api-key': 'pk_sandbox_not_a_key' });
    const refused = await Promise.all(Array.from({ length: 5 }, () => wrongKey.get('/partner/v1/events?limit=1')));
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect((await api.get('/partner/v1/events?limit=1')).status).toBe(200);

    const invalid = await admin().post('/sandbox/v1/partners', { name: 'x', rate_limit_per_second: 0 });
    expect({ status: invalid.status, body: invalid.body }).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', message: expect.any(String), field: 'rate_limit_per_second' },
    });
  });
});
