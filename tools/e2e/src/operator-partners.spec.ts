import { ApiClient, ApiResponse, newCpf, newUuid, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';

// The operator's day (docs/api.md: "Operator API"): partners listed and read, disabled and enabled again on
// both production gateway instances of the test stack (OPERATOR_GATEWAY_URLS, SANDBOX=false), a partner's
// users, a user's ledger, and the audit log searched by partner, operator key and time.

const USDT = 1_000_000;
const MATIC_MEDIUM_FEE = 50_000;

const [first, second] = requireEnv('OPERATOR_GATEWAY_URLS').split(',');
const [firstAdmin, secondAdmin] = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
const operator = (url = firstAdmin) => new ApiClient(url, { 'x-admin-key': requireEnv('PRODUCTION_ADMIN_API_KEY') });
const partnerOn = (url: string, apiKey: string) => new ApiClient(url, { 'x-api-key': apiKey });

interface PartnerDetail {
  id: string;
  name: string;
  created_at: number;
  status: 'active' | 'disabled';
  disabled_at: number | null;
  active_api_keys: number;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
}
interface LedgerEntry {
  id: number;
  type: string;
  available_delta_micros: number;
  held_delta_micros: number;
  available_after_micros: number;
  held_after_micros: number;
  withdrawal_id: number | null;
  fee_micros: number | null;
  network: string | null;
  tx_hash: string | null;
  gas_cost_wei: string | null;
  idempotency_key: string | null;
  reference: string | null;
  created_at: number;
}

async function newPartner(name: string): Promise<{ id: string; apiKey: string }> {
  const partner = await operator().post<{ id: string }>('/admin/v1/partners', { name, rate_limit_per_second: 500 });
  expect(partner.status).toBe(201);
  const key = await operator().post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`);
  expect(key.status).toBe(201);
  return { id: partner.body.id, apiKey: key.body.api_key };
}

async function newUser(partnerId: string, credit = 0): Promise<string> {
  const document = newCpf();
  expect((await operator().post(`/admin/v1/partners/${partnerId}/users`, { document })).status).toBe(201);
  if (credit > 0) {
    const credited = await operator().post(`/admin/v1/partners/${partnerId}/users/${document}/credits`, {
      usdt_micros: credit,
      idempotency_key: `dep-${document}`,
      reference: 'TED 1',
    });
    expect(credited.status).toBe(201);
  }
  return document;
}

/** Every page of a listing, following next_cursor. */
async function allPages<T>(path: string, items: (body: Record<string, unknown>) => T[]): Promise<{ items: T[]; pages: number }> {
  const found: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: ApiResponse<Record<string, unknown>> = await operator().get(`${path}${cursor ? `${sep}cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    found.push(...items(res.body));
    cursor = res.body.next_cursor as string | null;
    pages++;
  } while (cursor && pages < 50);
  return { items: found, pages };
}

describe('the operator day on a SANDBOX=false stack with two gateway instances', () => {
  it('reads a partner, and lists partners newest first in pages', async () => {
    const older = await newPartner('listed older');
    const newer = await newPartner('listed newer');
    const read = await operator(secondAdmin).get<PartnerDetail>(`/admin/v1/partners/${newer.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: newer.id,
      name: 'listed newer',
      created_at: expect.any(Number),
      status: 'active',
      disabled_at: null,
      active_api_keys: 1,
      rate_limit_per_second: 500,
      rate_limit_burst: null,
    });

    const firstPage = await operator().get<{ partners: PartnerDetail[]; next_cursor: string | null }>('/admin/v1/partners?limit=1');
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.partners).toHaveLength(1);
    expect(firstPage.body.next_cursor).toEqual(expect.any(String));
    // Paged with limit=2 until both are seen: the newer one comes before the older one, none twice.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse<{ partners: PartnerDetail[]; next_cursor: string | null }> = await operator().get(
        `/admin/v1/partners?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.partners.map((p) => p.id));
      cursor = page.body.next_cursor;
    } while (cursor && !seen.includes(older.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf(newer.id)).toBeLessThan(seen.indexOf(older.id));

    const badCursor = await operator().get('/admin/v1/partners?cursor=bm90LW91cnM');
    expect({ status: badCursor.status, body: badCursor.body }).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'invalid_request', field: 'cursor' }),
    });
    const badLimit = await operator().get('/admin/v1/partners?limit=0');
    expect({ status: badLimit.status, field: badLimit.body.field }).toEqual({ status: 400, field: 'limit' });
    const unknown = await operator().get(`/admin/v1/partners/${newUuid()}`);
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'partner_not_found' });
    expect((await operator().post(`/admin/v1/partners/${newUuid()}/disable`)).status).toBe(404);
  });

  it('disables a partner: every key refused on both instances within a second, data kept; enabled, the same keys work', async () => {
    const partner = await newPartner('disabled for a while');
    const document = await newUser(partner.id, 10 * USDT);
    const api = partnerOn(first, partner.apiKey);
    const withdrawal = await api.post<{ id: number }>(
      '/partner/v1/withdrawals/usdt',
      withdrawalRequest(document, { fee_choice: 'MEDIUM' }),
    );
    expect(withdrawal.status).toBe(201);
    // The key is cached on both instances.
    for (const url of [first, second]) expect((await partnerOn(url, partner.apiKey).get('/partner/v1/events')).status).toBe(200);

    const disabledAt = Date.now();
    const disabled = await operator().post<PartnerDetail>(`/admin/v1/partners/${partner.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: partner.id, status: 'disabled', disabled_at: expect.any(Number), active_api_keys: 1 });
    await Promise.all(
      [first, second].map((url) =>
        pollUntil(
          `the disabled partner's key refused on ${url}`,
          () => partnerOn(url, partner.apiKey).get('/partner/v1/events'),
          (r) => r.status === 403,
          { timeoutMs: 1_000, intervalMs: 25 },
        ),
      ),
    );
    expect(Date.now() - disabledAt).toBeLessThan(1_500);
    for (const url of [first, second]) {
      const refused = await partnerOn(url, partner.apiKey).get(`/partner/v1/withdrawals/usdt/${withdrawal.body.id}`);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 403,
        body: expect.objectContaining({ error: 'partner_disabled', message: expect.any(String) }),
      });
      // The Pix key family answers it in the {error} shape too, like unauthorized.
      const pixKey = await partnerOn(url, partner.apiKey).get(`/partner/v1/pix-key/${document}`);
      expect({ status: pixKey.status, error: pixKey.body.error }).toEqual({ status: 403, error: 'partner_disabled' });
    }
    // Disabling again changes nothing: the same time.
    const again = await operator(secondAdmin).post<PartnerDetail>(`/admin/v1/partners/${partner.id}/disable`);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: disabled.body });
    expect((await operator().get<PartnerDetail>(`/admin/v1/partners/${partner.id}`)).body.status).toBe('disabled');

    const enabled = await operator(secondAdmin).post<PartnerDetail>(`/admin/v1/partners/${partner.id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'active', disabled_at: null });
    await Promise.all(
      [first, second].map((url) =>
        pollUntil(
          `the enabled partner's key accepted on ${url}`,
          () => partnerOn(url, partner.apiKey).get('/partner/v1/events'),
          (r) => r.status === 200,
          { timeoutMs: 1_000, intervalMs: 25 },
        ),
      ),
    );
    // Its data is all there.
    for (const url of [first, second]) {
      const read = await partnerOn(url, partner.apiKey).get<{ id: number; usdtmicros: number }>(
        `/partner/v1/withdrawals/usdt/${withdrawal.body.id}`,
      );
      expect({ status: read.status, id: read.body.id }).toEqual({ status: 200, id: withdrawal.body.id });
    }
    expect((await operator().post(`/admin/v1/partners/${partner.id}/enable`)).status).toBe(200);
  });

  it("lists a partner's users in pages, and no other partner's", async () => {
    const partner = await newPartner('with users');
    const other = await newPartner('other users');
    const documents = [await newUser(partner.id, 3 * USDT), await newUser(partner.id), await newUser(partner.id)].sort();
    await newUser(other.id);
    const { items, pages } = await allPages<{
      document: string;
      created_at: number;
      available_usdt_micros: number;
      held_usdt_micros: number;
    }>(`/admin/v1/partners/${partner.id}/users?limit=2`, (body) => body.users as never);
    expect(pages).toBe(2);
    expect(items.map((u) => u.document)).toEqual(documents);
    expect(items.reduce((sum, u) => sum + u.available_usdt_micros, 0)).toBe(3 * USDT);
    for (const u of items)
      expect(u).toEqual({
        document: expect.any(String),
        created_at: expect.any(Number),
        available_usdt_micros: expect.any(Number),
        held_usdt_micros: 0,
      });
    const unknown = await operator().get(`/admin/v1/partners/${newUuid()}/users`);
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'partner_not_found' });
    const badCursor = await operator().get(`/admin/v1/partners/${partner.id}/users?cursor=bm9wZQ`);
    expect({ status: badCursor.status, error: badCursor.body.error, field: badCursor.body.field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'cursor',
    });
  });

  it("reads a user's ledger newest first: the credit, the withdrawal's hold and settlement with its fee, the balances after", async () => {
    const partner = await newPartner('with a ledger');
    const document = await newUser(partner.id, 10 * USDT);
    const api = partnerOn(second, partner.apiKey);
    const withdrawal = await api.post<{ id: number }>(
      '/partner/v1/withdrawals/usdt',
      withdrawalRequest(document, { usdtmicros: 4 * USDT, fee_choice: 'MEDIUM' }),
    );
    expect(withdrawal.status).toBe(201);
    const path = `/admin/v1/partners/${partner.id}/users/${document}/ledger`;
    const ledger = await pollUntil(
      'the settlement in the ledger',
      async () => (await operator().get<{ entries: LedgerEntry[]; next_cursor: string | null }>(path)).body,
      (body) => body.entries.length === 3,
    );
    const held = 4 * USDT + MATIC_MEDIUM_FEE;
    expect(ledger.next_cursor).toBeNull();
    expect(ledger.entries.map(({ id: _id, created_at: _at, ...rest }) => rest)).toEqual([
      {
        type: 'withdrawal_settle',
        available_delta_micros: 0,
        held_delta_micros: -held,
        available_after_micros: 10 * USDT - held,
        held_after_micros: 0,
        withdrawal_id: withdrawal.body.id,
        fee_micros: MATIC_MEDIUM_FEE,
        // The transfer mined on chain and the gas the hot wallet spent on it (wei).
        network: 'MATIC',
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        gas_cost_wei: expect.stringMatching(/^[1-9]\d*$/),
        idempotency_key: null,
        reference: null,
        operators: null,
      },
      {
        type: 'withdrawal_hold',
        available_delta_micros: -held,
        held_delta_micros: held,
        available_after_micros: 10 * USDT - held,
        held_after_micros: held,
        withdrawal_id: withdrawal.body.id,
        fee_micros: MATIC_MEDIUM_FEE,
        network: 'MATIC',
        tx_hash: null,
        gas_cost_wei: null,
        idempotency_key: null,
        reference: null,
        operators: null,
      },
      {
        type: 'credit',
        available_delta_micros: 10 * USDT,
        held_delta_micros: 0,
        available_after_micros: 10 * USDT,
        held_after_micros: 0,
        withdrawal_id: null,
        fee_micros: null,
        network: null,
        tx_hash: null,
        gas_cost_wei: null,
        idempotency_key: `dep-${document}`,
        reference: 'TED 1',
        // The operator key that credited.
        operators: expect.stringMatching(/^environment \(env_[0-9a-f]{12}\)$/),
      },
    ]);
    const { items, pages } = await allPages<LedgerEntry>(`${path}?limit=1`, (body) => body.entries as never);
    expect(pages).toBe(3);
    expect(items).toEqual(ledger.entries);

    const other = await newPartner('not the ledger owner');
    const foreign = await operator().get(`/admin/v1/partners/${other.id}/users/${document}/ledger`);
    expect({ status: foreign.status, error: foreign.body.error }).toEqual({ status: 404, error: 'user_not_found' });
    const badCpf = await operator().get(`/admin/v1/partners/${partner.id}/users/12345678900/ledger`);
    expect({ status: badCpf.status, error: badCpf.body.error }).toEqual({ status: 400, error: 'invalid_document' });
  });

  it('searches the audit log by partner, operator key and time range', async () => {
    const startedAt = Math.floor(Date.now() / 1000);
    const partner = await newPartner('audited');
    await operator().get(`/admin/v1/partners/${partner.id}`);
    const byPartner = await operator().get<{
      entries: { partner_id: string | null; operator_key_id: string | null; route: string; occurred_at: number }[];
    }>(`/admin/v1/audit-log?partner_id=${partner.id}`);
    expect(byPartner.status).toBe(200);
    // The key issue and the read (the creation's path names no partner).
    expect(byPartner.body.entries.map((e) => e.route)).toEqual([
      '/admin/v1/partners/:partner_id',
      '/admin/v1/partners/:partner_id/api-keys',
    ]);
    const operatorKeyId = byPartner.body.entries[0].operator_key_id;
    expect(operatorKeyId).toEqual(expect.any(String));

    const search = `partner_id=${partner.id}&operator_key_id=${operatorKeyId}`;
    const withinRange = await operator().get<{ entries: unknown[] }>(
      `/admin/v1/audit-log?${search}&from=${startedAt}&to=${startedAt + 600}`,
    );
    expect(withinRange.body.entries).toHaveLength(2);
    const later = await operator().get<{ entries: unknown[] }>(`/admin/v1/audit-log?${search}&from=${startedAt + 600}`);
    expect({ status: later.status, entries: later.body.entries }).toEqual({ status: 200, entries: [] });
    const earlier = await operator().get<{ entries: unknown[] }>(`/admin/v1/audit-log?${search}&to=${startedAt - 60}`);
    expect(earlier.body.entries).toEqual([]);
    const anotherKey = await operator().get<{ entries: unknown[] }>(
      `/admin/v1/audit-log?partner_id=${partner.id}&operator_key_id=${newUuid()}`,
    );
    expect(anotherKey.body.entries).toEqual([]);
    for (const bad of ['from=yesterday', 'to=-1', 'operator_key_id=nope']) {
      const res = await operator().get(`/admin/v1/audit-log?${bad}`);
      expect({ status: res.status, error: res.body.error, field: res.body.field }).toEqual({
        status: 400,
        error: 'invalid_request',
        field: bad.split('=')[0],
      });
    }
  });
});
