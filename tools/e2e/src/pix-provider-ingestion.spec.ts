import { PixInflow } from '@partner/contracts';
import { ApiClient, ApiResponse, newCpf, pollUntil, requireEnv } from '@partner/testing';
import { pixInflowTo, signNotification } from './support/pix-provider';
import { FeedEvent, listEvents } from './support/sandbox';

// Pix provider ingestion (docs/api.md: "Pix provider ingestion") on the production shape of the stack: a
// SANDBOX=false gateway (OPERATOR_GATEWAY_URLS) with PIX_PROVIDER_WEBHOOK_SECRET (scripts/test/run.ts).
// Partner, key and user (and the user's payment account) come from the operator API; the inflows only from
// signed notifications, which name the receiving account (v2), never our partner id.

const [gateway] = requireEnv('OPERATOR_GATEWAY_URLS').split(',');
const [adminUrl] = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
const operator = () => new ApiClient(adminUrl, { 'x-admin-key': requireEnv('PRODUCTION_ADMIN_API_KEY') });
const provider = new ApiClient(gateway);
const PATH = '/provider/v2/pix/inflows';

type Answer = { end_to_end_id: string; status: string; created: boolean; matched: boolean } & { error?: string; message?: string };
type Account = { ispb: string; branch: string; number: string; type: string };

/** POSTs the notification signed as the provider does (or with the given header; none when null). */
function notify(notification: Record<string, unknown> | string, signature?: string | null): Promise<ApiResponse<Answer>> {
  const body = typeof notification === 'string' ? notification : JSON.stringify(notification);
  const header = signature === undefined ? signNotification(body) : signature;
  return provider.request<Answer>('POST', PATH, body, header === null ? {} : { 'x-pix-signature': header });
}

async function newReceiver(): Promise<{ api: ApiClient; partnerId: string; document: string; account: Account }> {
  const partner = await operator().post<{ id: string }>('/admin/v1/partners', { name: 'Pix provider e2e' });
  expect(partner.status).toBe(201);
  const key = await operator().post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`);
  expect(key.status).toBe(201);
  const document = newCpf();
  const user = await operator().post<{ account: Account & { opened_at: number } }>(`/admin/v1/partners/${partner.body.id}/users`, {
    document,
  });
  expect(user.status).toBe(201);
  const { opened_at: _openedAt, ...account } = user.body.account;
  return { api: new ApiClient(gateway, { 'x-api-key': key.body.api_key }), partnerId: partner.body.id, document, account };
}

const inflowOf = (account: Account, status = 'processing') =>
  pixInflowTo(account, { amount_cents: 25_000, description: 'via provider', status });

/** The first notification: the operator's registration answered once the user's account was open, so it is recorded at once. */
const created = (n: Record<string, unknown> | string) => notify(n);

const listed = async (api: ApiClient): Promise<PixInflow[]> => {
  const res = await api.get<{ pix_in: PixInflow[] }>('/partner/v1/pix-in');
  expect(res.status).toBe(200);
  return res.body.pix_in;
};
const statesOf = (events: FeedEvent[], e2e: string) =>
  events.filter((e) => e.type === 'pix_in' && e.resource_id === e2e).map((e) => e.state);
const feedStates = (api: ApiClient, e2e: string, count: number) =>
  pollUntil(
    `${count} pix_in events of ${e2e}`,
    () => listEvents(api),
    (events) => statesOf(events, e2e).length >= count,
  ).then((events) => statesOf(events, e2e));

describe('Pix provider ingestion on a SANDBOX=false gateway', () => {
  it('records a signed notification (201), listed with the notified fields and a pix_in event; moves it to credited', async () => {
    const { api, account } = await newReceiver();
    const n = inflowOf(account);
    const first = await created(n);
    expect({ status: first.status, body: first.body }).toEqual({
      status: 201,
      body: { end_to_end_id: n.end_to_end_id, status: 'processing', created: true, matched: true },
    });
    const [inflow] = await listed(api);
    expect(inflow).toMatchObject({
      end_to_end_id: n.end_to_end_id,
      amount_cents: 25_000,
      description: 'via provider',
      sender_tax_id: n.sender_tax_id,
      status: 'processing',
    });

    for (const status of ['approved', 'success', 'credited']) {
      const moved = await notify({ ...n, status });
      expect({ status: moved.status, body: moved.body }).toEqual({
        status: 200,
        body: { end_to_end_id: n.end_to_end_id, status, created: false, matched: true },
      });
    }
    expect((await listed(api)).map((p) => p.status)).toEqual(['credited']);
    expect(await feedStates(api, n.end_to_end_id, 4)).toEqual(['processing', 'approved', 'success', 'credited']);
  });

  it('reaches denied and failed; a final status refuses any move with 409 invalid_transition', async () => {
    const { api, account } = await newReceiver();
    const denied = inflowOf(account);
    expect((await created(denied)).status).toBe(201);
    expect((await notify({ ...denied, status: 'denied' })).body.status).toBe('denied');
    const illegal = await notify({ ...denied, status: 'approved' });
    expect({ status: illegal.status, error: illegal.body.error }).toEqual({ status: 409, error: 'invalid_transition' });

    const failed = inflowOf(account, 'approved');
    expect((await notify(failed)).body).toEqual({ end_to_end_id: failed.end_to_end_id, status: 'approved', created: true, matched: true });
    expect((await notify({ ...failed, status: 'failed' })).body.status).toBe('failed');
    expect((await notify({ ...failed, status: 'processing' })).status).toBe(409);

    expect((await listed(api)).map((p) => [p.end_to_end_id, p.status])).toEqual([
      [failed.end_to_end_id, 'failed'],
      [denied.end_to_end_id, 'denied'],
    ]);
    expect(await feedStates(api, denied.end_to_end_id, 2)).toEqual(['processing', 'denied']);
    expect(await feedStates(api, failed.end_to_end_id, 2)).toEqual(['approved', 'failed']);
  });

  it('is idempotent: the same notification twice is one inflow and one event; another payload for the id is 409', async () => {
    const { api, account } = await newReceiver();
    const n = inflowOf(account);
    expect((await created(n)).status).toBe(201);
    const again = await notify(n);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 200,
      body: { end_to_end_id: n.end_to_end_id, status: 'processing', created: false, matched: true },
    });
    const conflict = await notify({ ...n, amount_cents: 1 });
    expect({ status: conflict.status, error: conflict.body.error }).toEqual({ status: 409, error: 'end_to_end_id_conflict' });
    // A later notification proves the feed is complete up to it: still one processing event.
    expect((await notify({ ...n, status: 'approved' })).status).toBe(200);
    expect(await feedStates(api, n.end_to_end_id, 2)).toEqual(['processing', 'approved']);
    expect(await listed(api)).toHaveLength(1);
  });

  it('verifies over the exact bytes: a payer name in raw UTF-8 or as a \\u00e3 escape passes signed as sent, not signed over a re-serialisation', async () => {
    const { api, account } = await newReceiver();
    const rawUtf8 = JSON.stringify({ ...inflowOf(account), sender_name: 'João Conceição' });
    expect(Buffer.byteLength(rawUtf8)).toBeGreaterThan(rawUtf8.length);
    const escapedN = inflowOf(account);
    const escaped = JSON.stringify({ ...escapedN, sender_name: 'Jo_o' }).replace('"Jo_o"', '"Jo\\u00e3o"');
    // A verifier that parsed and re-serialised would sign other bytes than these (the escape comes back as raw UTF-8).
    const reserialised = JSON.stringify(JSON.parse(escaped));
    expect(reserialised).not.toBe(escaped);

    const refused = await notify(escaped, signNotification(reserialised));
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 401, error: 'invalid_signature' });
    expect((await created(rawUtf8)).status).toBe(201);
    expect((await notify(escaped)).status).toBe(201);

    const names = (await listed(api)).map((p) => [p.end_to_end_id, p.sender_name]);
    expect(names).toEqual([
      [escapedN.end_to_end_id, 'João'],
      [JSON.parse(rawUtf8).end_to_end_id, 'João Conceição'],
    ]);
  });

  it('refuses a bad, stale or missing signature with 401 invalid_signature and a malformed body with 400, creating nothing', async () => {
    const { api, account } = await newReceiver();
    const n = inflowOf(account);
    const body = JSON.stringify(n);
    const refusals = [
      await notify(body, null),
      await notify(body, signNotification(body, undefined, 'x'.repeat(64))),
      await notify(body, signNotification(body, Math.floor(Date.now() / 1000) - 301)),
      await notify(body, 'v1=deadbeef'),
      await notify(body, signNotification(JSON.stringify({ ...n, amount_cents: 1 }))),
    ];
    for (const res of refusals) expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: 'invalid_signature' });
    expect(refusals.map((r) => r.body.message)).toEqual([
      'missing X-Pix-Signature',
      'X-Pix-Signature does not match the body',
      'X-Pix-Signature timestamp is more than 300 s from now',
      'X-Pix-Signature must be t=<unix seconds>,v1=<64 lowercase hex digits>',
      'X-Pix-Signature does not match the body',
    ]);

    const malformed = await notify({ ...n, status: 'settled' });
    expect({ status: malformed.status, error: malformed.body.error, field: (malformed.body as { field?: string }).field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'status',
    });
    expect((await notify('{"receiver_account":')).status).toBe(400);
    // The retired v1 body (our partner id and the user's CPF) is refused by name, and the v1 path is gone.
    const v1 = await notify({ ...n, partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10', document: newCpf() });
    expect({ status: v1.status, error: v1.body.error, field: (v1.body as { field?: string }).field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'partner_id',
    });
    const retired = await provider.request<Answer>('POST', '/provider/v1/pix/inflows', body, { 'x-pix-signature': signNotification(body) });
    expect({ status: retired.status, error: retired.body.error }).toEqual({ status: 404, error: 'not_found' });
    // Accepted once the notification is right: so the refusals above were the only reason nothing was recorded.
    expect((await created(n)).status).toBe(201);
    expect((await listed(api)).map((p) => p.end_to_end_id)).toEqual([n.end_to_end_id]);
  });
});
