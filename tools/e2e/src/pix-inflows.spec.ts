import { END_TO_END_ID_PATTERN, isCpfOrCnpj, PIX_IN_METHODS, PixInflow, SENDER_ACCOUNT_TYPES } from '@partner/contracts';
import { ApiClient, ApiResponse, newCpf, PIX_IN_SPEC_FIELDS, pollUntil } from '@partner/testing';
import { FeedEvent, gatewayUrl, listEvents, newPartner, newUser } from './support/sandbox';

// Pix inflows (docs/api.md: "Pix inflows") through the running stack: the sandbox asks the simulated Pix network for
// a payment, the inflows service records it from the network's topic and settles it; the partner sees
// it in GET /partner/v1/pix-in and as pix_in events in the feed.

/** The fields docs/api.md lists for a Pix inflow, and nothing else (sorted: JSON key order is not asserted over HTTP). */
const SPEC_FIELDS = [...PIX_IN_SPEC_FIELDS].sort();

type Listing = { pix_in: PixInflow[]; next_cursor?: string | null };

const simulate = (api: ApiClient, body: Record<string, unknown>) => api.post<{ end_to_end_id: string }>('/sandbox/v1/pix-in', body);

async function sent(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await simulate(api, body);
  if (res.status !== 202) throw new Error(`simulated Pix refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.end_to_end_id;
}

const list = (api: ApiClient, query = ''): Promise<ApiResponse<Listing>> =>
  api.get<Listing>(`/partner/v1/pix-in${query ? `?${query}` : ''}`);

async function listed(api: ApiClient, query = ''): Promise<Listing> {
  const res = await list(api, query);
  if (res.status !== 200) throw new Error(`pix-in listing failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const pixInEventsOf = (events: FeedEvent[], e2e: string) => events.filter((e) => e.type === 'pix_in' && e.resource_id === e2e);
const TERMINAL = ['credited', 'denied', 'failed'];

/** The inflow's pix_in events once its last one (a terminal status) is in the feed. */
async function settledEvents(api: ApiClient, e2e: string): Promise<FeedEvent[]> {
  const events = await pollUntil(
    `the terminal pix_in event of ${e2e}`,
    () => listEvents(api),
    (all) => pixInEventsOf(all, e2e).some((e) => TERMINAL.includes(e.state)),
  );
  return pixInEventsOf(events, e2e);
}

/** Every inflow of the partner has reached a terminal status. */
const allSettled = (api: ApiClient, count: number) =>
  pollUntil(
    `${count} settled inflows`,
    () => listed(api),
    (l) => l.pix_in.length === count && l.pix_in.every((p) => TERMINAL.includes(p.status)),
  );

describe('Pix inflows end to end', () => {
  it('simulates an incoming Pix: listed with exactly the 2.4 fields in valid formats; processing, approved, success, credited in the feed', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const before = Math.floor(Date.now() / 1000);

    const res = await simulate(api, { document, amount_cents: 15_050, description: 'aluguel de novembro' });

    expect(res.status).toBe(202);
    expect(res.body).toEqual({ end_to_end_id: expect.stringMatching(END_TO_END_ID_PATTERN) });
    const e2e = res.body.end_to_end_id;
    const events = await settledEvents(api, e2e);
    expect(events.map((e) => e.state)).toEqual(['processing', 'approved', 'success', 'credited']);

    const listing = await listed(api);
    expect(Object.keys(listing)).toEqual(['pix_in']);
    expect(listing.pix_in).toHaveLength(1);
    const [inflow] = listing.pix_in;
    expect(Object.keys(inflow).sort()).toEqual(SPEC_FIELDS);
    expect(inflow).toMatchObject({
      amount_cents: 15_050,
      description: 'aluguel de novembro',
      end_to_end_id: e2e,
      method: 'manual',
      status: 'credited',
    });
    // Valid, realistic sender: a CPF or CNPJ with check digits, the payer's ISPB also inside the end-to-end id.
    expect(isCpfOrCnpj(inflow.sender_tax_id)).toBe(true);
    expect(inflow.sender_bank_code).toMatch(/^\d{8}$/);
    expect(e2e.slice(1, 9)).toBe(inflow.sender_bank_code);
    expect(inflow.sender_branch_code).toMatch(/^\d{1,4}$/);
    expect(inflow.sender_account_number).toMatch(/^\d{1,20}$/);
    expect(SENDER_ACCOUNT_TYPES).toContain(inflow.sender_account_type);
    expect(inflow.sender_name.length).toBeGreaterThan(0);
    // Unix seconds; the end-to-end id carries the UTC minute the payment was sent.
    expect(Number.isInteger(inflow.created_at) && Number.isInteger(inflow.last_updated_at)).toBe(true);
    expect(inflow.created_at).toBeGreaterThanOrEqual(before - 1);
    expect(inflow.last_updated_at).toBeGreaterThanOrEqual(inflow.created_at);
    const m = /^E\d{8}(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(e2e);
    const sentMinute = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) / 1000 : NaN;
    expect(inflow.created_at - sentMinute).toBeGreaterThanOrEqual(0);
    expect(inflow.created_at - sentMinute).toBeLessThan(120);

    // Each event carries the inflow as it was right then, with the receiving user.
    for (const e of events) {
      expect(e.data).toMatchObject({ ...inflow, document, status: e.state, last_updated_at: expect.any(Number) });
      expect(Number.isInteger(e.created_at)).toBe(true);
    }
    expect(events[3].data).toEqual({ ...inflow, document });
  });

  it('keeps the sender fields given and leaves description out when none was sent', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const sender = {
      sender_name: 'Padaria Pão Quente Ltda',
      sender_tax_id: '12ABC34501DE35',
      sender_account_number: '0098765',
      sender_account_type: 'checking',
      sender_bank_code: '60701190',
      sender_branch_code: '0341',
    };

    const e2e = await sent(api, { document, amount_cents: 1, method: 'dynamic_qr_code', ...sender });

    expect(e2e.slice(1, 9)).toBe('60701190');
    const [inflow] = (
      await pollUntil(
        'the inflow',
        () => listed(api),
        (l) => l.pix_in.length === 1,
      )
    ).pix_in;
    expect(inflow).toMatchObject({ ...sender, amount_cents: 1, method: 'dynamic_qr_code', end_to_end_id: e2e });
    expect(inflow).not.toHaveProperty('description');
    expect(Object.keys(inflow).sort()).toEqual(SPEC_FIELDS.filter((f) => f !== 'description'));
  });

  it('reports a denied inflow: processing, then denied', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);

    const e2e = await sent(api, { document, amount_cents: 500, simulate_outcome: 'denied' });

    expect((await settledEvents(api, e2e)).map((e) => e.state)).toEqual(['processing', 'denied']);
    expect((await listed(api)).pix_in.map((p) => [p.end_to_end_id, p.status])).toEqual([[e2e, 'denied']]);
  });

  it('reports a failed inflow: processing, approved, then failed', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);

    const e2e = await sent(api, { document, amount_cents: 500, simulate_outcome: 'failed' });

    expect((await settledEvents(api, e2e)).map((e) => e.state)).toEqual(['processing', 'approved', 'failed']);
    expect((await listed(api)).pix_in.map((p) => [p.end_to_end_id, p.status])).toEqual([[e2e, 'failed']]);
  });

  it('reaches the account directly by every method but dict', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const methods = PIX_IN_METHODS.filter((m) => m !== 'dict');

    for (const method of methods) expect((await simulate(api, { document, amount_cents: 100, method })).status).toBe(202);

    const listing = await pollUntil(
      'every inflow',
      () => listed(api),
      (l) => l.pix_in.length === methods.length,
    );
    expect(listing.pix_in.map((p) => p.method).sort()).toEqual([...methods].sort());
  });

  it('refuses a Pix by key (dict) to a user without a registered Pix key: 422 pix_key_not_registered, nothing recorded', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);

    const res = await simulate(api, { document, amount_cents: 100, method: 'dict' });

    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'pix_key_not_registered', message: expect.stringContaining('no registered Pix key') });
    // A later, accepted inflow is the only one listed: the refused one was never sent.
    const e2e = await sent(api, { document, amount_cents: 100 });
    const listing = await pollUntil(
      'the accepted inflow',
      () => listed(api),
      (l) => l.pix_in.length > 0,
    );
    expect(listing.pix_in.map((p) => p.end_to_end_id)).toEqual([e2e]);
  });

  it('answers 404 user_not_found for a CPF the partner has no user for', async () => {
    const { api } = await newPartner();

    const res = await simulate(api, { document: newCpf(), amount_cents: 100 });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'user_not_found', message: expect.any(String) });
  });

  it.each([
    [{ document: '52998224724' }, 'document'],
    [{ amount_cents: 0 }, 'amount_cents'],
    [{ amount_cents: '100' }, 'amount_cents'],
    [{ amount_cents: 10.5 }, 'amount_cents'],
    [{ method: 'pix' }, 'method'],
    [{ sender_tax_id: '11111111111' }, 'sender_tax_id'],
    [{ sender_tax_id: '11.222.333/0001-81' }, 'sender_tax_id'],
    [{ sender_bank_code: '341' }, 'sender_bank_code'],
    [{ sender_branch_code: '12345' }, 'sender_branch_code'],
    [{ sender_account_type: 'current' }, 'sender_account_type'],
    [{ simulate_outcome: 'success' }, 'simulate_outcome'],
    [{ payer: 'x' }, 'payer'],
  ])('refuses the sandbox body with %p: 400 invalid_request naming %s', async (override, field) => {
    const { api } = await newPartner();

    const res = await simulate(api, { document: newCpf(), amount_cents: 100, ...override });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', field, message: expect.any(String) });
  });
});

describe('GET /partner/v1/pix-in', () => {
  it('answers {pix_in: []} for a partner without inflows', async () => {
    const { api } = await newPartner();
    const res = await list(api);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pix_in: [] });
  });

  it('pages newest first with limit and cursor, ends with next_cursor null, and filters by status', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const outcomes = ['credited', 'denied', 'credited', 'denied', 'credited'];
    const ids: string[] = [];
    // Listing order is recording order; payments travel on different partitions and may be recorded in
    // any order, so each one is recorded before the next is sent.
    for (const outcome of outcomes) {
      const id = await sent(api, { document, amount_cents: 100, simulate_outcome: outcome });
      await pollUntil(
        `inflow ${id} recorded`,
        () => listed(api),
        (l) => l.pix_in.some((p) => p.end_to_end_id === id),
      );
      ids.push(id);
    }
    const everything = await allSettled(api, outcomes.length);
    const newestFirst = [...ids].reverse();
    expect(everything.pix_in.map((p) => p.end_to_end_id)).toEqual(newestFirst);
    expect(everything).not.toHaveProperty('next_cursor');

    const pages: Listing[] = [await listed(api, 'limit=2')];
    while (pages[pages.length - 1].next_cursor) pages.push(await listed(api, `limit=2&cursor=${pages[pages.length - 1].next_cursor}`));
    expect(pages.map((p) => p.pix_in.map((i) => i.end_to_end_id))).toEqual([
      newestFirst.slice(0, 2),
      newestFirst.slice(2, 4),
      newestFirst.slice(4),
    ]);
    expect(pages[2].next_cursor).toBeNull();
    for (const p of pages) for (const i of p.pix_in) expect(Object.keys(i).sort()).toEqual(SPEC_FIELDS.filter((f) => f !== 'description'));

    const denied = await listed(api, 'status=denied');
    expect(denied.pix_in.map((p) => p.end_to_end_id)).toEqual([ids[3], ids[1]]);
    const firstDenied = await listed(api, 'status=denied&limit=1');
    const secondDenied = await listed(api, `status=denied&limit=1&cursor=${firstDenied.next_cursor}`);
    expect([firstDenied.pix_in[0].end_to_end_id, secondDenied.pix_in[0].end_to_end_id, secondDenied.next_cursor]).toEqual([
      ids[3],
      ids[1],
      null,
    ]);
    expect((await listed(api, 'status=credited')).pix_in.map((p) => p.status)).toEqual(['credited', 'credited', 'credited']);
    expect(await listed(api, 'status=processing')).toEqual({ pix_in: [] });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=two', 'limit'],
    ['status=settled', 'status'],
    ['cursor=*', 'cursor'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['cursor=a&cursor=b', 'cursor'],
    ['page=2', 'page'],
  ])('refuses the query %s: 400 invalid_request naming %s', async (query, field) => {
    const { api } = await newPartner();

    const res = await list(api, query);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', field, message: expect.any(String) });
  });
});

describe('Pix inflows across partners', () => {
  it("B lists nothing of A's and cannot send a Pix to A's user", async () => {
    const a = await newPartner('partner A');
    const b = await newPartner('partner B');
    const document = await newUser(a.api, 0);
    const e2e = await sent(a.api, { document, amount_cents: 2_500 });
    await pollUntil(
      "A's inflow",
      () => listed(a.api),
      (l) => l.pix_in.length === 1,
    );

    expect(await listed(b.api)).toEqual({ pix_in: [] });
    expect(await listed(b.api, 'limit=10')).toEqual({ pix_in: [], next_cursor: null });
    const toAsUser = await simulate(b.api, { document, amount_cents: 100 });
    expect(toAsUser.status).toBe(404);
    expect(toAsUser.body).toMatchObject({ error: 'user_not_found', message: expect.any(String) });
    expect(pixInEventsOf(await listEvents(b.api), e2e)).toEqual([]);
    expect((await listed(a.api)).pix_in.map((p) => p.end_to_end_id)).toEqual([e2e]);
  });
});

describe('Pix inflows authentication', () => {
  const anonymous = () => new ApiClient(gatewayUrl());

  it.each([
    ['GET', '/partner/v1/pix-in', undefined],
    ['POST', '/sandbox/v1/pix-in', { document: '52998224725', amount_cents: 100 }],
  ])('%s %s without a valid X-API-Key is 401 {error: unauthorized}', async (method, path, body) => {
    for (const client of [anonymous(), anonymous().withHeaders({ 'x-api-key': 'pk_sandbox_unknown' })]) {
      const res = await client.request(method, path, body);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
    }
  });
});
