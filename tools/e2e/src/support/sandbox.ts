import { createPartnerApiClient, PartnerApiClient } from '@partner/api-client';
import type { PartnerEvent } from '@partner/contracts';
import { ApiClient, contractCheckedFetch, newCpf, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';

export const gatewayUrl = () => requireEnv('GATEWAY_URL');
/**
 * Every gateway instance a partner's requests go to in turn: GATEWAY_URLS when npm test runs suites
 * against two instances of every app, else the one gateway.
 */
export const gatewayUrls = (): string[] => process.env.GATEWAY_URLS?.split(',').filter(Boolean) ?? [gatewayUrl()];
/** The gateway's admin port: its /readyz and /metrics answer there only (docs/operations/observability.md: "Health, readiness and the admin port"). */
export const gatewayAdminUrl = () => requireEnv('GATEWAY_ADMIN_URL');

/** The typed client (libs/api-client) with a partner's key; its answers are checked against the document like ApiClient's. */
export const typedClient = (apiKey: string): PartnerApiClient =>
  createPartnerApiClient({ baseUrl: gatewayUrl(), apiKey, fetch: contractCheckedFetch });

/**
 * A fresh partner with its API clients: every test works in a tenant of its own. `api` sends anything
 * (malformed input included); `client` is the typed client, which only compiles requests the document allows.
 */
export async function newPartner(name = 'e2e partner'): Promise<{ id: string; apiKey: string; api: ApiClient; client: PartnerApiClient }> {
  const admin = new ApiClient(gatewayUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
  const res = await admin.post<{ id: string; api_key: string }>('/sandbox/v1/partners', { name });
  if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id,
    apiKey: res.body.api_key,
    api: new ApiClient(gatewayUrls(), { 'x-api-key': res.body.api_key }),
    client: typedClient(res.body.api_key),
  };
}

/** A sandbox partner with its own rate limit: `perSecond` sustained, bursts of `burst`. */
export async function limitedPartner(perSecond: number, burst: number): Promise<ApiClient> {
  const admin = new ApiClient(gatewayUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
  const res = await admin.post<{ api_key: string }>('/sandbox/v1/partners', {
    name: 'limited',
    rate_limit_per_second: perSecond,
    rate_limit_burst: burst,
  });
  if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return new ApiClient(gatewayUrl(), { 'x-api-key': res.body.api_key });
}

/** A user of the partner with `micros` of USDT, and a holder's name (a Pix key needs one: DICT records it). */
export async function newUser(api: ApiClient, micros: number, name = 'Maria da Silva Souza'): Promise<string> {
  const document = newCpf();
  const res = await api.post('/sandbox/v1/users', { document, usdt_micros: micros, name });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return document;
}

/** A user's payment account as the API shows it: at the operator's ISPB, branch 0001, a 9-digit transactional account. */
export const ACCOUNT_SHAPE = {
  ispb: expect.stringMatching(/^\d{8}$/),
  branch: '0001',
  number: expect.stringMatching(/^\d{9}$/),
  type: 'TRAN',
  opened_at: expect.any(Number),
};

/** `count` withdrawals of 1 USDT from the user, each accepted (201); each then lives created, sent, settled. */
export async function sendWithdrawals(api: ApiClient, document: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect(res.status).toBe(201);
  }
}

/** The user's available balance, read through the sandbox helper (a credit of 0 answers the balance). */
export async function balanceOf(api: ApiClient, document: string): Promise<number> {
  const res = await api.post<{ usdt_micros: number }>('/sandbox/v1/users', { document, usdt_micros: 0 });
  if (res.status !== 200) throw new Error(`balance read failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.usdt_micros;
}

export type FeedEvent = PartnerEvent;

export async function listEvents(api: ApiClient, query = 'delivered=false'): Promise<FeedEvent[]> {
  const res = await api.get<{ events: FeedEvent[] }>(`/partner/v1/events?${query}`);
  if (res.status !== 200) throw new Error(`events listing failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.events;
}

/** A sandbox Pix of `cents` to the user, once its inflow reads `credited`: its end-to-end id. */
export async function creditedPix(api: ApiClient, document: string, cents: number): Promise<string> {
  const res = await api.post<{ end_to_end_id: string }>('/sandbox/v1/pix-in', { document, amount_cents: cents });
  expect(res.status).toBe(202);
  const e2e = res.body.end_to_end_id;
  await pollUntil(
    `inflow ${e2e} credited`,
    () => api.get<{ status: string }>(`/partner/v1/pix-in/${e2e}`),
    (r) => r.status === 200 && r.body.status === 'credited',
  );
  return e2e;
}
