import { SERVICE_NAMES } from '@partner/contracts';
import { ApiClient, newUuid, pollUntil, withdrawalRequest } from '@partner/testing';
import { ACCOUNT_SHAPE, gatewayAdminUrl, gatewayUrl, listEvents, newPartner, newUser, sendWithdrawals } from './support/sandbox';

describe('authentication', () => {
  const anonymous = () => new ApiClient(gatewayUrl());
  const routes: Array<[string, string]> = [
    ['POST', '/partner/v1/withdrawals/usdt'],
    ['GET', '/partner/v1/withdrawals/usdt/1'],
    ['GET', '/partner/v1/pix-key/52998224725'],
    ['GET', `/partner/v1/customers/business/${newUuid()}`],
    ['GET', '/partner/v1/events?delivered=false'],
    ['PATCH', `/partner/v1/events/${newUuid()}`],
    ['POST', '/partner/v1/events/ack'],
    ['POST', '/sandbox/v1/users'],
  ];

  it.each(routes)('%s %s without X-API-Key is 401 {error: unauthorized}', async (method, path) => {
    const res = await anonymous().request(method, path, method === 'POST' ? {} : undefined);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'unauthorized' });
  });

  it.each(routes)('%s %s with an unknown key is 401', async (method, path) => {
    const res = await anonymous()
      .withHeaders({ 'x-api-key': 'pk_sandbox_unknown' })
      .request(method, path, method === 'POST' ? {} : undefined);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'unauthorized' });
  });

  it('sandbox partner creation needs the admin key', async () => {
    const res = await anonymous().withHeaders({ 'x-admin-key': 'wrong-admin-key-000' }).post('/sandbox/v1/partners', {});
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'unauthorized' });
  });
});

describe('events feed', () => {
  it('is private to each partner: no listing, no marking, no withdrawing across partners', async () => {
    const a = await newPartner('partner A');
    const b = await newPartner('partner B');
    const document = await newUser(a.api, 10_000_000);
    const created = await a.api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect(created.status).toBe(201);
    const [event] = await pollUntil(
      'the created event',
      () => listEvents(a.api),
      (all) => all.length > 0,
    );

    expect(await listEvents(b.api, '')).toEqual([]);
    const foreign = await b.api.patch(`/partner/v1/events/${event.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'not_found' });
    expect((await listEvents(a.api)).find((e) => e.id === event.id)?.delivered).toBe(false);

    // B cannot spend A's user's balance: to B, that user does not exist.
    const stolen = await b.api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect(stolen.status).toBe(404);
    expect(stolen.body).toMatchObject({ error: 'user_not_found' });
  });

  it('PATCH of an unknown event is 404 with a JSON body; a malformed id is 400', async () => {
    const { api } = await newPartner();
    const unknown = await api.patch(`/partner/v1/events/${newUuid()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'not_found', message: expect.any(String) });
    const malformed = await api.patch('/partner/v1/events/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request', field: 'id' });
  });

  it('PATCH takes Content-Type: application/json with an empty body, or {}: 200 {}; malformed JSON or a field is 400', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10_000_000);
    const created = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect(created.status).toBe(201);
    const [first, second] = await pollUntil(
      'two events',
      () => listEvents(api),
      (all) => all.length >= 2,
    );
    const json = { 'content-type': 'application/json' };

    const empty = await api.request('PATCH', `/partner/v1/events/${first.id}`, '', json);
    expect([empty.status, empty.body]).toEqual([200, {}]);
    const emptyObject = await api.request('PATCH', `/partner/v1/events/${second.id}`, '{}', json);
    expect([emptyObject.status, emptyObject.body]).toEqual([200, {}]);
    const delivered = new Set((await listEvents(api, 'delivered=true')).map((e) => e.id));
    expect([delivered.has(first.id), delivered.has(second.id)]).toEqual([true, true]);

    const malformed = await api.request('PATCH', `/partner/v1/events/${first.id}`, '{', json);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request', message: 'request body is not valid JSON' });
    const withField = await api.request('PATCH', `/partner/v1/events/${first.id}`, '{"delivered":true}', json);
    expect(withField.status).toBe(400);
    expect(withField.body).toMatchObject({ error: 'invalid_request', field: 'delivered' });
    const unknown = await api.request('PATCH', `/partner/v1/events/${newUuid()}`, '', json);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'not_found' });
    // DELETE pix-key needs its body: sent empty with the header, it names the missing field.
    const deletion = await api.request('DELETE', `/partner/v1/pix-key/${document}`, '', json);
    expect(deletion.status).toBe(400);
    expect(deletion.body).toMatchObject({ status: 'invalid_request', field: 'idempotency_key' });
  });

  it('validates its query: delivered must be true or false, limit 1..1000', async () => {
    const { api } = await newPartner();
    for (const query of ['delivered=maybe', 'limit=0', 'limit=1001', 'limit=abc', 'unknown=1']) {
      const res = await api.get(`/partner/v1/events?${query}`);
      expect({ query, status: res.status, error: res.body.error }).toEqual({ query, status: 400, error: 'invalid_request' });
    }
    const ok = await api.get('/partner/v1/events?delivered=false&limit=5');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ events: [], next_cursor: expect.any(String) });
  });

  it('honours limit, oldest first', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 100_000_000);
    await sendWithdrawals(api, document, 3);
    const all = await pollUntil(
      'nine events',
      () => listEvents(api, ''),
      (events) => events.length === 9,
    );
    const firstTwo = await listEvents(api, 'limit=2');
    expect(firstTwo.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(all.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // created_at is when the change happened, sequence when the feed got it: only one resource's events
    // are promised in created_at order (three withdrawals' events interleave across services).
    for (const id of new Set(all.map((e) => e.resource_id))) {
      const times = all.filter((e) => e.resource_id === id).map((e) => e.created_at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
  });
});

describe('sandbox users', () => {
  it('creates a user (201) then credits it (200), answering the balance', async () => {
    const { api } = await newPartner();
    const document = '52998224725';
    const first = await api.post('/sandbox/v1/users', { document, usdt_micros: 5 });
    const second = await api.post('/sandbox/v1/users', { document, usdt_micros: 7 });
    expect([first.status, first.body]).toEqual([
      201,
      {
        document,
        usdt_micros: 5,
        account: ACCOUNT_SHAPE,
      },
    ]);
    expect([second.status, second.body]).toEqual([200, { document, usdt_micros: 12, account: first.body.account }]);
    const invalid = await api.post('/sandbox/v1/users', { document: '11111111111', usdt_micros: 5 });
    expect([invalid.status, invalid.body.error, invalid.body.field]).toEqual([400, 'invalid_request', 'document']);
  });
});

describe('health', () => {
  it('healthz is up and readyz, on the admin port, sees the broker, the database and every service', async () => {
    expect((await new ApiClient(gatewayUrl()).get('/healthz')).status).toBe(200);
    expect((await fetch(`${gatewayAdminUrl()}/healthz`)).status).toBe(200);
    const res = await fetch(`${gatewayAdminUrl()}/readyz`);
    const ready = (await res.json()) as { status: string; info: Record<string, { status: string }> };
    expect(res.status).toBe(200);
    expect(Object.keys(ready.info).sort()).toEqual(['database', 'kafka', 'kafka_consumers', ...SERVICE_NAMES].sort());
    expect(Object.values(ready.info).every((i) => i.status === 'up')).toBe(true);
  });

  it('the API port answers /readyz and /metrics as unknown routes, and the admin port nothing of the API', async () => {
    for (const path of ['/readyz', '/metrics', '/readyz?x=1']) {
      const res = await new ApiClient(gatewayUrl()).get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: expect.objectContaining({ error: 'not_found' }),
      });
    }
    const api = await fetch(`${gatewayAdminUrl()}/partner/v1/events`, { headers: { 'x-api-key': 'pk_sandbox_x' } });
    expect(api.status).toBe(404);
    expect((await fetch(`${gatewayAdminUrl()}/metrics`)).status).toBe(200);
  });

  it('unknown routes answer 404 in JSON', async () => {
    const res = await new ApiClient(gatewayUrl()).get('/partner/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'not_found' });
  });
});
