import { randomBytes } from 'node:crypto';
import { ApiClient, ApiResponse, newCpf, pollUntil, requireEnv } from '@partner/testing';
import { pixInflowTo, signNotification } from './support/pix-provider';
import { ACCOUNT_SHAPE, gatewayAdminUrl, newPartner } from './support/sandbox';

// Accounts for users and their BRL balance (docs/api.md: "A user's balance", "Pix provider ingestion",
// "Operator API"): every user gets a payment account at the operator; a Pix inflow reaching `credited`
// credits it, once per end_to_end_id; the partner reads it back beside the USDT balance; an inflow for an
// account no user has is kept aside for the operator. In the sandbox through its simulated Pix; in
// production shape (SANDBOX=false gateways, scripts/test/run.ts) through signed provider notifications.

type Account = { ispb: string; branch: string; number: string; type: string; opened_at: number };
type Balances = {
  document: string;
  available_usdt_micros: number;
  held_usdt_micros: number;
  available_brl_cents: number;
  blocked_brl_cents: number;
};
type Answer = { end_to_end_id: string; status: string; created: boolean; matched: boolean; error?: string; field?: string };
type LedgerEntry = {
  id: number;
  type: string;
  currency: string;
  available_delta_cents: number;
  available_after_cents: number;
  end_to_end_id: string;
};
type Unmatched = {
  end_to_end_id: string;
  status: string;
  amount_cents: number;
  receiver_account: Omit<Account, 'opened_at'>;
  receiver_key: string | null;
  refusal: string | null;
};

// The sandbox stack.
const sandboxOperator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

// The production shape: SANDBOX=false gateways with the Pix provider's secret.
const [prodGateway] = requireEnv('OPERATOR_GATEWAY_URLS').split(',');
const [prodAdmin] = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
const prodOperator = () => new ApiClient(prodAdmin, { 'x-admin-key': requireEnv('PRODUCTION_ADMIN_API_KEY') });
const provider = new ApiClient(prodGateway);
const PROVIDER_PATH = '/provider/v2/pix/inflows';

/** POSTs a notification signed as the provider does. */
function notify(notification: Record<string, unknown> | string): Promise<ApiResponse<Answer>> {
  const body = typeof notification === 'string' ? notification : JSON.stringify(notification);
  return provider.request<Answer>('POST', PROVIDER_PATH, body, { 'x-pix-signature': signNotification(body) });
}

/** A partner, its key and a named user, made through the production operator API; the user's account as answered. */
async function productionUser(): Promise<{ api: ApiClient; partnerId: string; document: string; account: Omit<Account, 'opened_at'> }> {
  const partner = await prodOperator().post<{ id: string }>('/admin/v1/partners', { name: 'BRL balance e2e' });
  expect(partner.status).toBe(201);
  const key = await prodOperator().post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`);
  const document = newCpf();
  const user = await prodOperator().post<{ document: string; created_at: number; account: Account }>(
    `/admin/v1/partners/${partner.body.id}/users`,
    { document, name: 'Joana Prado' },
  );
  expect({ status: user.status, body: user.body }).toEqual({
    status: 201,
    body: { document, created_at: expect.any(Number), account: ACCOUNT_SHAPE },
  });
  const { opened_at: _openedAt, ...account } = user.body.account;
  return { api: new ApiClient(prodGateway, { 'x-api-key': key.body.api_key }), partnerId: partner.body.id, document, account };
}

async function balances(api: ApiClient, document: string): Promise<Balances> {
  const res = await api.get<Balances>(`/partner/v1/users/${document}/balance`);
  expect(res.status).toBe(200);
  return res.body;
}

async function brlLedger(operator: ApiClient, partnerId: string, document: string): Promise<LedgerEntry[]> {
  const res = await operator.get<{ entries: LedgerEntry[]; next_cursor: string | null }>(
    `/admin/v1/partners/${partnerId}/users/${document}/brl-ledger?limit=200`,
  );
  expect(res.status).toBe(200);
  return res.body.entries;
}

describe('BRL balance: sandbox inflows', () => {
  it("credits the user's account with every credited sandbox Pix, once, and nothing for a denied or failed one; the partner and the operator read it back", async () => {
    const { id: partnerId, api } = await newPartner('BRL sandbox');
    const document = newCpf();
    const user = await api.post<{ document: string; usdt_micros: number; account: Account }>('/sandbox/v1/users', {
      document,
      usdt_micros: 1_000_000,
      name: 'Ana Lima',
    });
    expect({ status: user.status, body: user.body }).toEqual({
      status: 201,
      body: { document, usdt_micros: 1_000_000, account: ACCOUNT_SHAPE },
    });
    expect(await balances(api, document)).toEqual({
      document,
      available_usdt_micros: 1_000_000,
      held_usdt_micros: 0,
      available_brl_cents: 0,
      blocked_brl_cents: 0,
    });

    const sent: string[] = [];
    for (const [amount, outcome] of [
      [15_050, 'credited'],
      [2_000, 'denied'],
      [700, 'credited'],
      [9_999, 'failed'],
    ] as const) {
      const res = await api.post<{ end_to_end_id: string }>('/sandbox/v1/pix-in', {
        document,
        amount_cents: amount,
        simulate_outcome: outcome,
      });
      expect(res.status).toBe(202);
      sent.push(res.body.end_to_end_id);
    }
    await pollUntil(
      'every sandbox inflow settled',
      () => api.get<{ pix_in: { status: string }[] }>('/partner/v1/pix-in'),
      (res) => res.body.pix_in.length === 4 && res.body.pix_in.every((p) => ['credited', 'denied', 'failed'].includes(p.status)),
    );

    expect(await balances(api, document)).toEqual({
      document,
      available_usdt_micros: 1_000_000,
      held_usdt_micros: 0,
      available_brl_cents: 15_750,
      blocked_brl_cents: 0,
    });
    // One entry per credited inflow, newest first, each balance after it the running sum (the two may settle in either order).
    const entries = await brlLedger(sandboxOperator(), partnerId, document);
    expect(entries.map((e) => [e.type, e.currency])).toEqual([
      ['pix_in_credit', 'BRL'],
      ['pix_in_credit', 'BRL'],
    ]);
    expect(new Map(entries.map((e) => [e.end_to_end_id, e.available_delta_cents]))).toEqual(
      new Map([
        [sent[0], 15_050],
        [sent[2], 700],
      ]),
    );
    expect(entries.map((e) => e.available_after_cents)).toEqual([15_750, entries[1].available_delta_cents]);
    const operatorBalance = await sandboxOperator().get(`/admin/v1/partners/${partnerId}/users/${document}/balance`);
    expect(operatorBalance.body).toEqual({
      available_usdt_micros: 1_000_000,
      held_usdt_micros: 0,
      available_brl_cents: 15_750,
      blocked_brl_cents: 0,
    });
    // The sandbox helper with usdt_micros 0 reads the user again: the same account.
    const again = await api.post<{ account: Account }>('/sandbox/v1/users', { document, usdt_micros: 0 });
    expect(again.body.account).toEqual(user.body.account);
  });
});

describe('BRL balance: the Pix provider by account (SANDBOX=false)', () => {
  it('credits an inflow notified by account once, under redelivery, concurrent duplicates and a replay of every notification', async () => {
    const { api, partnerId, document, account } = await productionUser();
    const n = pixInflowTo(account, { amount_cents: 25_000 });

    expect((await notify(n)).status).toBe(201);
    for (const status of ['approved', 'success']) expect((await notify({ ...n, status })).status).toBe(200);
    const credited = await notify({ ...n, status: 'credited' });
    expect({ status: credited.status, body: credited.body }).toEqual({
      status: 200,
      body: { end_to_end_id: n.end_to_end_id, status: 'credited', created: false, matched: true },
    });
    // Redelivered, concurrently, then the whole sequence replayed: nothing more.
    const redelivered = await Promise.all(Array.from({ length: 6 }, () => notify({ ...n, status: 'credited' })));
    expect(redelivered.map((r) => [r.status, r.body.status])).toEqual(Array.from({ length: 6 }, () => [200, 'credited']));
    // A replay of the whole sequence: the earlier statuses cannot follow the final credited (409), credited again is a repeat (200).
    const replayed: number[] = [];
    for (const status of ['processing', 'approved', 'success', 'credited']) replayed.push((await notify({ ...n, status })).status);
    expect(replayed).toEqual([409, 409, 409, 200]);

    expect((await balances(api, document)).available_brl_cents).toBe(25_000);
    expect((await brlLedger(prodOperator(), partnerId, document)).map((e) => [e.end_to_end_id, e.available_delta_cents])).toEqual([
      [n.end_to_end_id, 25_000],
    ]);

    // A second inflow, its first notification already at credited, sent concurrently: one more credit.
    const direct = pixInflowTo(account, { amount_cents: 5, status: 'credited', method: 'dict', receiver_key: document });
    const first = await Promise.all(Array.from({ length: 5 }, () => notify(direct)));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect((await balances(api, document)).available_brl_cents).toBe(25_005);
    const listed = await api.get<{ pix_in: { end_to_end_id: string; status: string }[] }>('/partner/v1/pix-in');
    expect(listed.body.pix_in.map((p) => [p.end_to_end_id, p.status])).toEqual([
      [direct.end_to_end_id, 'credited'],
      [n.end_to_end_id, 'credited'],
    ]);
  });

  it('refuses an inflow for an account no user has (422 account_not_found), keeping it for the operator: credited to no one, in no listing', async () => {
    const { api, document, account } = await productionUser();
    const strangers = [
      pixInflowTo({ ...account, number: `9${randomBytes(4).readUInt32BE(0)}`.slice(0, 12) }),
      pixInflowTo({ ...account, ispb: '12345678' }),
      pixInflowTo({ ...account, type: 'CACC' }),
    ];
    for (const n of strangers) {
      const first = await notify(n);
      expect([first.status, first.body.error, first.body.field]).toEqual([422, 'account_not_found', 'receiver_account']);
    }
    const [kept] = strangers;
    for (const status of ['processing', 'approved', 'success', 'credited']) {
      const moved = await notify({ ...kept, status });
      expect([moved.status, moved.body.error]).toEqual([422, 'account_not_found']);
    }
    const conflict = await notify({ ...kept, amount_cents: 1 });
    expect([conflict.status, conflict.body.error]).toEqual([409, 'end_to_end_id_conflict']);

    expect((await balances(api, document)).available_brl_cents).toBe(0);
    expect((await api.get<{ pix_in: unknown[] }>('/partner/v1/pix-in')).body.pix_in).toEqual([]);
    const unmatched = await prodOperator().get<{ unmatched_pix_inflows: Unmatched[]; next_cursor: string | null }>(
      '/admin/v1/unmatched-pix-inflows?limit=200',
    );
    expect(unmatched.status).toBe(200);
    const mine = unmatched.body.unmatched_pix_inflows.filter((u) => strangers.some((n) => n.end_to_end_id === u.end_to_end_id));
    expect(mine.map((u) => [u.end_to_end_id, u.status, u.amount_cents, u.receiver_account, u.receiver_key, u.refusal])).toEqual(
      [...strangers]
        .reverse()
        .map((n) => [n.end_to_end_id, n === kept ? 'credited' : 'processing', 12_345, n.receiver_account, null, 'account_not_found']),
    );
    // Paged with a cursor the operator API issued; a forged one is 400.
    const page = await prodOperator().get<{ unmatched_pix_inflows: Unmatched[]; next_cursor: string | null }>(
      '/admin/v1/unmatched-pix-inflows?limit=1',
    );
    expect(page.body.unmatched_pix_inflows).toHaveLength(1);
    expect(typeof page.body.next_cursor).toBe('string');
    const forged = await prodOperator().get('/admin/v1/unmatched-pix-inflows?cursor=bm9wZQ');
    expect([forged.status, forged.body.error, forged.body.field]).toEqual([400, 'invalid_request', 'cursor']);
  });

  it('blocks, unblocks and closes an account through the operator API; the provider is refused while it cannot receive', async () => {
    const { partnerId, document, account } = await productionUser();
    const path = `/admin/v1/partners/${partnerId}/users/${document}/account/status`;
    const blocked = await prodOperator().request('PUT', path, { status: 'blocked', reason: 'court order 123' });
    expect([blocked.status, blocked.body]).toEqual([
      200,
      {
        document,
        branch: account.branch,
        number: account.number,
        type: 'TRAN',
        status: 'blocked',
        status_reason: 'court order 123',
        status_changed_at: expect.any(Number),
        available_brl_cents: 0,
      },
    ]);
    const refused = await notify(pixInflowTo(account));
    expect([refused.status, refused.body.error]).toEqual([422, 'account_blocked']);
    expect((await prodOperator().request('PUT', path, { status: 'active', reason: 'lifted' })).status).toBe(200);
    expect((await notify(pixInflowTo(account))).status).toBe(201);

    const other = await productionUser();
    const otherPath = `/admin/v1/partners/${other.partnerId}/users/${other.document}/account/status`;
    expect((await prodOperator().request('PUT', otherPath, { status: 'closed', reason: 'asked by the holder' })).body).toMatchObject({
      status: 'closed',
    });
    const closed = await notify(pixInflowTo(other.account));
    expect([closed.status, closed.body.error]).toEqual([409, 'account_closed']);
    const reopen = await prodOperator().request('PUT', otherPath, { status: 'active', reason: 'x' });
    expect([reopen.status, reopen.body.error]).toEqual([409, 'account_closed']);
    const bad = await prodOperator().request('PUT', otherPath, { status: 'frozen', reason: 'x' });
    expect([bad.status, bad.body.error, bad.body.field]).toEqual([400, 'invalid_request', 'status']);
    const unknown = await prodOperator().request('PUT', `/admin/v1/partners/${partnerId}/users/${newCpf()}/account/status`, {
      status: 'blocked',
      reason: 'x',
    });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'user_not_found']);
  });

  it("refuses a disabled partner's users' Pix (422 account_blocked) until the partner is enabled again", async () => {
    const { partnerId, account } = await productionUser();
    expect((await prodOperator().post(`/admin/v1/partners/${partnerId}/disable`)).status).toBe(200);
    // The inflows service learns it from the gateway's event: within a few seconds.
    const refused = await pollUntil(
      'the Pix refused',
      () => notify(pixInflowTo(account)),
      (res) => res.status === 422,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect([refused.status, refused.body.error]).toEqual([422, 'account_blocked']);
    expect((await prodOperator().post(`/admin/v1/partners/${partnerId}/enable`)).status).toBe(200);
    const received = await pollUntil(
      'the Pix received',
      () => notify(pixInflowTo(account)),
      (res) => res.status === 201,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(received.body.matched).toBe(true);
  });

  it("refuses hostile receiving accounts, keys and oversized bodies with the family's 400 (413), never a 5xx, recording nothing", async () => {
    const { api, account } = await productionUser();
    const base = pixInflowTo(account);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, receiver_account: { ...account, ispb: '1234567' } }, 'receiver_account.ispb'],
      [{ ...base, receiver_account: { ...account, ispb: 12345678 } }, 'receiver_account.ispb'],
      [{ ...base, receiver_account: { ...account, branch: '1' } }, 'receiver_account.branch'],
      [{ ...base, receiver_account: { ...account, number: '12345-6' } }, 'receiver_account.number'],
      [{ ...base, receiver_account: { ...account, number: '1'.repeat(21) } }, 'receiver_account.number'],
      [{ ...base, receiver_account: { ...account, number: `${account.number}\u0000` } }, 'receiver_account.number'],
      [{ ...base, receiver_account: { ...account, type: 'checking' } }, 'receiver_account.type'],
      [{ ...base, receiver_account: { ...account, holder: 'x' } }, 'receiver_account.holder'],
      [{ ...base, receiver_account: null }, 'receiver_account'],
      [{ ...base, receiver_account: [account] }, 'receiver_account'],
      [{ ...base, receiver_account: `${account.ispb}/${account.branch}/${account.number}` }, 'receiver_account'],
      [{ ...base, method: 'dict' }, 'receiver_key'],
      [{ ...base, method: 'dict', receiver_key: 'Maria@Example.com' }, 'receiver_key'],
      [{ ...base, receiver_key: '\u202E52998224725' }, 'receiver_key'],
      [{ ...base, receiver_key: 'a\ud800' }, 'receiver_key'],
    ];
    for (const [body, field] of cases) {
      const res = await notify(body);
      expect({ field, status: res.status, body: res.body }).toEqual({
        field,
        status: 400,
        body: expect.objectContaining({ error: 'invalid_request', field }),
      });
    }
    const oversized = await notify({ ...base, description: 'x'.repeat(70_000) });
    expect([oversized.status, oversized.body.error]).toEqual([413, 'payload_too_large']);
    expect((await api.get<{ pix_in: unknown[] }>('/partner/v1/pix-in')).body.pix_in).toEqual([]);
    // Accepted once right: so the refusals above were the only reason nothing was recorded.
    expect((await notify(base)).status).toBe(201);
  });
});
