import { createPartnerApiClient } from './partner-api-client';

/** A client whose requests land here instead of on the network, each answered 200 with an empty page. */
function capturing(options: { apiKey?: string; adminKey?: string; headers?: Record<string, string> }) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request);
    return new Response(JSON.stringify({ events: [] }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { api: createPartnerApiClient({ baseUrl: 'http://gateway.test', fetch, ...options }), sent };
}

describe('createPartnerApiClient', () => {
  it('sends the partner key as X-API-Key, to the path under the base URL', async () => {
    const { api, sent } = capturing({ apiKey: 'pk_sandbox_x' });
    const { data } = await api.GET('/partner/v1/events', { params: { query: { limit: 10 } } });
    expect(data).toEqual({ events: [] });
    expect(sent.map((r) => [r.method, r.url])).toEqual([['GET', 'http://gateway.test/partner/v1/events?limit=10']]);
    expect(sent[0].headers.get('x-api-key')).toBe('pk_sandbox_x');
    expect(sent[0].headers.get('x-admin-key')).toBeNull();
  });

  it('sends the operator key as X-Admin-Key, and extra headers beside the keys', async () => {
    const { api, sent } = capturing({ apiKey: 'pk_sandbox_x', adminKey: 'adm_x', headers: { 'x-request-id': 'r-1' } });
    await api.GET('/partner/v1/events');
    expect(Object.fromEntries(sent[0].headers)).toMatchObject({
      'x-api-key': 'pk_sandbox_x',
      'x-admin-key': 'adm_x',
      'x-request-id': 'r-1',
    });
  });

  it('sends no key header when given none', async () => {
    const { api, sent } = capturing({});
    await api.GET('/partner/v1/events');
    expect([sent[0].headers.get('x-api-key'), sent[0].headers.get('x-admin-key')]).toEqual([null, null]);
  });
});
