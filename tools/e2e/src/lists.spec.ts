import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { allPages, ApiClient, FAILING_ADDRESS, newCpf, newUuid, pollUntil, VALID_ADDRESS } from '@partner/testing';
import { newPartner, newUser } from './support/sandbox';

// The lists of docs/api.md "Lists" and a user's balance, against the real stack: pages chain to the end,
// newest first, filters, partner scoping and the 400 of each bad parameter, in each family's error shape.

const USDT = 1_000_000;

interface Page {
  next_cursor: string | null;
  [list: string]: unknown;
}

/** Every item of a list, following next_cursor page by page with `query` (each page must answer 200). */
async function everyPage<T>(
  api: ApiClient,
  path: string,
  list: string,
  query: Record<string, string>,
): Promise<{ items: T[]; pages: number }> {
  return allPages(async (cursor) => {
    const res = await api.get<Page>(`${path}?${new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) }).toString()}`);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    return { items: res.body[list] as T[], next_cursor: res.body.next_cursor };
  });
}

/** The 400 a list answers for `query`: the family's body with the code and the field named. */
async function refusal(api: ApiClient, path: string, query: string, key: 'error' | 'status') {
  const res = await api.get<Record<string, unknown>>(`${path}?${query}`);
  return { status: res.status, code: res.body[key], field: res.body.field };
}

/** The next_cursor of a first page of `limit`, which must exist. */
async function firstCursor(api: ApiClient, path: string, limit: number): Promise<string> {
  const res = await api.get<Page>(`${path}?limit=${limit}`);
  expect(res.status).toBe(200);
  expect(res.body.next_cursor).toEqual(expect.any(String));
  return res.body.next_cursor as string;
}

interface Withdrawal {
  id: number;
  document: string;
  state: string;
  created_at: number;
}

const WITHDRAWALS = '/partner/v1/withdrawals/usdt';

async function withdraw(api: ApiClient, document: string, address = VALID_ADDRESS): Promise<number> {
  const res = await api.post<{ id: number }>(WITHDRAWALS, {
    document,
    idempotency_key: newUuid(),
    address,
    usdtmicros: USDT,
    fee_choice: 'LOW',
    network: 'MATIC',
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('GET /partner/v1/withdrawals/usdt', () => {
  it('pages newest first to the end with no repeat and no gap, filters by user, state and creation time, and shows nothing to another partner', async () => {
    const { api } = await newPartner();
    const [alice, bob] = [await newUser(api, 100 * USDT), await newUser(api, 100 * USDT)];
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await withdraw(api, i % 2 === 0 ? alice : bob, i === 3 ? FAILING_ADDRESS : VALID_ADDRESS));

    const all = await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { limit: '2' });
    expect(all.items.map((w) => w.id)).toEqual([...ids].reverse());
    expect(all.pages).toBe(4);

    const bobs = await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { document: bob, limit: '1' });
    expect(bobs.items.map((w) => w.id)).toEqual([ids[5], ids[3], ids[1]]);

    // Once the chain is done: six settled, the one sent to the failing address failed.
    await pollUntil(
      'every withdrawal final',
      () => everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { state: 'settled' }),
      (page) => page.items.length === 6,
    );
    const failed = await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { state: 'failed' });
    expect(failed.items.map((w) => w.id)).toEqual([ids[3]]);
    // Each item is the withdrawal exactly as GET .../{id} answers it.
    expect(failed.items[0]).toEqual((await api.get(`${WITHDRAWALS}/${ids[3]}`)).body);
    expect((await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { state: 'created' })).items).toEqual([]);
    expect((await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { state: 'failed', document: alice })).items).toEqual([]);

    const firstAt = Math.min(...all.items.map((w) => w.created_at));
    const from = new Date(firstAt * 1000).toISOString();
    expect(
      (await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { created_from: from, limit: '3' })).items.map((w) => w.id),
    ).toEqual([...ids].reverse());
    expect((await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { created_to: from })).items).toEqual([]);
    expect(
      (await everyPage<Withdrawal>(api, WITHDRAWALS, 'withdrawals', { created_from: new Date(Date.now() + 60_000).toISOString() })).items,
    ).toEqual([]);

    const other = await newPartner();
    expect(await other.api.get(WITHDRAWALS)).toMatchObject({ status: 200, body: { withdrawals: [], next_cursor: null } });
    expect(await other.api.get(`${WITHDRAWALS}?document=${alice}`)).toMatchObject({
      status: 200,
      body: { withdrawals: [], next_cursor: null },
    });
    const cursor = await firstCursor(api, WITHDRAWALS, 2);
    expect(await refusal(other.api, WITHDRAWALS, `cursor=${cursor}`, 'error')).toEqual({
      status: 400,
      code: 'invalid_request',
      field: 'cursor',
    });
    expect(await refusal(api, WITHDRAWALS, `cursor=${cursor}&state=settled`, 'error')).toEqual({
      status: 400,
      code: 'invalid_request',
      field: 'cursor',
    });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['document=12345678900', 'document'],
    ['state=pending', 'state'],
    ['state=sent&state=settled', 'state'],
    ['created_from=2026-11-01', 'created_from'],
    ['created_to=2026-11-01T00:00:00', 'created_to'],
    ['created_to=2026-02-30T00:00:00Z', 'created_to'],
    ['sort=asc', 'sort'],
  ])('refuses %s with 400 invalid_request naming %s', async (query, field) => {
    const { api } = await newPartner();
    expect(await refusal(api, WITHDRAWALS, query, 'error')).toEqual({ status: 400, code: 'invalid_request', field });
  });
});

interface PixKeyItem {
  document: string;
  key_type: string;
  key: string | null;
  status: string;
  created_at: number;
  last_updated_at: number;
}

const PIX_KEYS = '/partner/v1/pix-key';
const createKey = (api: ApiClient, document: string) => api.post(PIX_KEYS, { document, idempotency_key: newUuid() });

describe('GET /partner/v1/pix-key', () => {
  it("lists every key asked for, a canceled one beside its successor, newest first, filtered by status and user, and nothing of another partner's", async () => {
    const { api } = await newPartner();
    const documents = [await newUser(api, 0), await newUser(api, 0), await newUser(api, 0)];
    for (const document of documents) expect((await createKey(api, document)).status).toBe(202);
    const [first] = documents;
    await pollUntil(
      'the first key registered',
      () => api.get<PixKeyItem>(`${PIX_KEYS}/${first}`),
      (res) => res.body.status === 'registered',
    );
    expect((await api.request('DELETE', `${PIX_KEYS}/${first}`, { idempotency_key: newUuid() })).status).toBe(202);
    await pollUntil(
      'the first key canceled',
      () => api.get<PixKeyItem>(`${PIX_KEYS}/${first}`),
      (res) => res.body.status === 'canceled',
    );
    expect((await createKey(api, first)).status).toBe(202);
    // Every current key registered, so the list and the reads below see the same states.
    for (const document of documents) {
      await pollUntil(
        `the key of ${document} registered`,
        () => api.get<PixKeyItem>(`${PIX_KEYS}/${document}`),
        (res) => res.body.status === 'registered',
      );
    }

    const all = await everyPage<PixKeyItem>(api, PIX_KEYS, 'pix_keys', { limit: '1' });
    expect(all.items.map((k) => k.document)).toEqual([first, documents[2], documents[1], first]);
    expect(all.pages).toBe(4);
    // The newest is the user's current key, exactly as GET .../{document} answers it.
    expect(all.items[0]).toEqual((await api.get(`${PIX_KEYS}/${first}`)).body);
    expect(all.items[3].status).toBe('canceled');

    expect((await everyPage<PixKeyItem>(api, PIX_KEYS, 'pix_keys', { status: 'canceled' })).items).toEqual([all.items[3]]);
    expect((await everyPage<PixKeyItem>(api, PIX_KEYS, 'pix_keys', { document: first, limit: '1' })).items.map((k) => k.document)).toEqual([
      first,
      first,
    ]);
    expect((await everyPage<PixKeyItem>(api, PIX_KEYS, 'pix_keys', { document: newCpf() })).items).toEqual([]);

    const other = await newPartner();
    expect(await other.api.get(`${PIX_KEYS}?document=${first}`)).toMatchObject({ status: 200, body: { pix_keys: [], next_cursor: null } });
    const cursor = await firstCursor(api, PIX_KEYS, 1);
    expect(await refusal(other.api, PIX_KEYS, `cursor=${cursor}`, 'status')).toEqual({
      status: 400,
      code: 'invalid_request',
      field: 'cursor',
    });
  });

  it.each([
    ['limit=0', 'invalid_request', 'limit'],
    ['cursor=%2F%2F', 'invalid_request', 'cursor'],
    ['status=active', 'invalid_request', 'status'],
    ['document=529.982.247-25', 'invalid_document', 'document'],
    ['state=registered', 'invalid_request', 'state'],
  ])('refuses %s with 400 {status: %s} naming %s', async (query, code, field) => {
    const { api } = await newPartner();
    expect(await refusal(api, PIX_KEYS, query, 'status')).toEqual({ status: 400, code, field });
  });
});

const CUSTOMERS = '/partner/v1/customers/business';

async function register(api: ApiClient, externalId: string): Promise<{ id: string; cnpj: string }> {
  const cnpj = generateCnpj({ version: 2 });
  const res = await api.post<{ id: string }>(CUSTOMERS, {
    ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE),
    cnpj,
    metadata: { external_id: externalId },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, cnpj };
}

describe('GET /partner/v1/customers/business', () => {
  it("pages newest first to the end, filters by CNPJ and external_id, and shows nothing of another partner's", async () => {
    const { api } = await newPartner();
    const registered = [];
    for (let i = 0; i < 5; i++) registered.push(await register(api, i < 3 ? 'north' : 'south'));

    const all = await everyPage<{ id: string }>(api, CUSTOMERS, 'customers', { limit: '2' });
    expect(all.items.map((c) => c.id)).toEqual(registered.map((c) => c.id).reverse());
    expect(all.pages).toBe(3);
    expect(all.items[0]).toEqual((await api.get(`${CUSTOMERS}/${registered[4].id}`)).body);

    expect((await everyPage<{ id: string }>(api, CUSTOMERS, 'customers', { cnpj: registered[1].cnpj })).items.map((c) => c.id)).toEqual([
      registered[1].id,
    ]);
    expect(
      (await everyPage<{ id: string }>(api, CUSTOMERS, 'customers', { external_id: 'north', limit: '1' })).items.map((c) => c.id),
    ).toEqual(
      registered
        .slice(0, 3)
        .map((c) => c.id)
        .reverse(),
    );

    const other = await newPartner();
    expect(await other.api.get(`${CUSTOMERS}?cnpj=${registered[0].cnpj}`)).toMatchObject({
      status: 200,
      body: { customers: [], next_cursor: null },
    });
    const cursor = await firstCursor(api, CUSTOMERS, 2);
    expect(await refusal(other.api, CUSTOMERS, `cursor=${cursor}`, 'error')).toEqual({
      status: 400,
      code: 'invalid_request',
      field: 'cursor',
    });
  });

  it.each([
    ['limit=-1', 'invalid_request', 'limit'],
    ['cursor=abc', 'invalid_request', 'cursor'],
    ['cnpj=12345678000100', 'invalid_cnpj', 'cnpj'],
    ['external_id=%20%20', 'invalid_request', 'external_id'],
    ['name=acme', 'invalid_request', 'name'],
  ])('refuses %s with 400 {error: %s} naming %s', async (query, code, field) => {
    const { api } = await newPartner();
    expect(await refusal(api, CUSTOMERS, query, 'error')).toEqual({ status: 400, code, field });
  });
});

describe('GET /partner/v1/users/{document}/balance', () => {
  it("answers the available and held micros of the user, and 404 user_not_found for an unknown user or another partner's", async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    expect(await api.get(`/partner/v1/users/${document}/balance`)).toMatchObject({
      status: 200,
      body: { document, available_usdt_micros: 10 * USDT, held_usdt_micros: 0, available_brl_cents: 0, blocked_brl_cents: 0 },
    });
    // A withdrawal holds amount + fee (MATIC LOW: 20,000) until it is final.
    await withdraw(api, document);
    const held = await api.get(`/partner/v1/users/${document}/balance`);
    expect([held.status, held.body.available_usdt_micros]).toEqual([200, 10 * USDT - USDT - 20_000]);
    expect(Object.keys(held.body)).toEqual([
      'document',
      'available_usdt_micros',
      'held_usdt_micros',
      'available_brl_cents',
      'blocked_brl_cents',
    ]);
    expect([0, USDT + 20_000]).toContain(held.body.held_usdt_micros);
    await pollUntil(
      'the hold captured',
      () => api.get(`/partner/v1/users/${document}/balance`),
      (res) => res.body.held_usdt_micros === 0,
    );

    const other = await newPartner();
    for (const [client, cpf] of [
      [other.api, document],
      [api, newCpf()],
    ] as const) {
      expect(await client.get(`/partner/v1/users/${cpf}/balance`)).toMatchObject({ status: 404, body: { error: 'user_not_found' } });
    }
    for (const bad of ['12345678900', '5299822472', '529.982.247-25']) {
      expect(await api.get(`/partner/v1/users/${encodeURIComponent(bad)}/balance`)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', field: 'document' },
      });
    }
  });
});
