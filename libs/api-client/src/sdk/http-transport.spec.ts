import { PartnerClient, PartnerClientOptions } from './partner-client';
import { PartnerApiError, PartnerTimeoutError } from './sdk-errors';
import { TestServer } from './test-server.spec-support';

// The SDK's fetch against a real local HTTP server: retries, Retry-After, timeouts and errors as a
// partner's process meets them.

const WITHDRAWAL = {
  document: '52998224725',
  address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  usdtmicros: 1_000_000,
  fee_choice: 'MEDIUM',
  network: 'MATIC',
} as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const unavailable = (headers: Record<string, string> = {}) => ({
  status: 503,
  body: { error: 'service_unavailable', message: 'the outcome is unknown' },
  headers,
});

let server: TestServer;
beforeAll(async () => (server = await new TestServer().start()));
afterAll(() => server.stop());

const client = (options: Partial<PartnerClientOptions> = {}) =>
  new PartnerClient({ baseUrl: server.url, apiKey: 'pk_test', retry: { baseDelayMs: 10 }, ...options });
const keysSent = () => server.received.map((r) => (r.body as { idempotency_key?: string }).idempotency_key);

describe('retries', () => {
  it('a create without a key gets one UUID, sent again on every retry of it; a second call gets another', async () => {
    server.script(unavailable(), unavailable(), { status: 201, body: { id: 7 } });
    const created = await client().withdrawals.create(WITHDRAWAL);
    expect(created).toEqual({ id: 7, idempotency_key: expect.stringMatching(UUID) });
    expect(keysSent()).toEqual([created.idempotency_key, created.idempotency_key, created.idempotency_key]);

    server.script({ status: 201, body: { id: 8 } });
    const other = await client().withdrawals.create(WITHDRAWAL);
    expect(other.idempotency_key).not.toBe(created.idempotency_key);
  });

  it("keeps the caller's key, and sends the API key and X-Request-Id on each attempt", async () => {
    server.script(unavailable(), { status: 200, body: { id: 7 } });
    const created = await client().withdrawals.create({ ...WITHDRAWAL, idempotency_key: 'my-key' }, { requestId: 'req-1' });
    expect(created).toEqual({ id: 7, idempotency_key: 'my-key' });
    expect(keysSent()).toEqual(['my-key', 'my-key']);
    expect(
      server.received.map((r) => [r.method, r.url, r.headers['x-api-key'], r.headers['x-request-id'], r.headers['content-type']]),
    ).toEqual([
      ['POST', '/partner/v1/withdrawals/usdt', 'pk_test', 'req-1', 'application/json'],
      ['POST', '/partner/v1/withdrawals/usdt', 'pk_test', 'req-1', 'application/json'],
    ]);
  });

  it('waits the Retry-After seconds of a 429 before the retry', async () => {
    server.script(
      { status: 429, body: { error: 'rate_limited', message: 'slow down' }, headers: { 'retry-after': '1' } },
      { body: { id: 7 } },
    );
    await client({ retry: { baseDelayMs: 1 } }).withdrawals.get(7);
    expect(server.received[1].at - server.received[0].at).toBeGreaterThanOrEqual(1_000);
  });

  it('waits until the HTTP date of a Retry-After', async () => {
    const at = new Date(Math.ceil((Date.now() + 1_500) / 1_000) * 1_000);
    server.script({ ...unavailable({ 'retry-after': at.toUTCString() }) }, { body: { id: 7 } });
    await client({ retry: { baseDelayMs: 1 } }).withdrawals.get(7);
    expect(server.received[1].at).toBeGreaterThanOrEqual(at.getTime() - 5);
  });

  it('gives up (throwing the last error) after maxAttempts, backing off between attempts', async () => {
    server.script(unavailable());
    const error = await client({ retry: { maxAttempts: 3, baseDelayMs: 40 } })
      .withdrawals.get(7)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(server.received).toHaveLength(3);
    const gaps = server.received.slice(1).map((r, i) => r.at - server.received[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(20); // first backoff: 20-40 ms
    expect(gaps[1]).toBeGreaterThanOrEqual(40); // second: 40-80 ms
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    server.script(unavailable({ 'retry-after': '120' }), { body: { id: 7 } });
    const error = await client()
      .withdrawals.get(7)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 120_000 });
    expect(server.received).toHaveLength(1);
  });

  it('never retries another 4xx', async () => {
    for (const status of [400, 401, 404, 409, 422]) {
      server.script({ status, body: { error: 'insufficient_funds', message: 'no' } }, { status: 201, body: { id: 7 } });
      await expect(client().withdrawals.create(WITHDRAWAL)).rejects.toMatchObject({ status });
      expect(server.received).toHaveLength(1);
    }
  });

  it('retries a network error of a read', async () => {
    server.script({ destroy: true }, { body: { id: 7, state: 'settled' } });
    await expect(client().withdrawals.get(7)).resolves.toEqual({ id: 7, state: 'settled' });
    expect(server.received).toHaveLength(2);
  });

  it('registers a business customer under one Idempotency-Key per call, the same on every retry; replayed on a 200', async () => {
    const customer = { cnpj: '12ABC34501DE35' } as Parameters<PartnerClient['customers']['createBusiness']>[0];
    const headerKeys = () => server.received.map((r) => r.headers['idempotency-key']);
    server.script(unavailable(), { destroy: true }, { status: 200, body: { id: 'c-1' } });
    const created = await client({ retry: { baseDelayMs: 1 } }).customers.createBusiness(customer);
    expect(created).toEqual({ id: 'c-1', idempotency_key: expect.stringMatching(UUID), replayed: true });
    expect(headerKeys()).toEqual([created.idempotency_key, created.idempotency_key, created.idempotency_key]);

    server.script({ status: 201, body: { id: 'c-2' } });
    const other = await client().customers.createBusiness(customer);
    expect(other).toEqual({ id: 'c-2', idempotency_key: expect.stringMatching(UUID), replayed: false });
    expect(other.idempotency_key).not.toBe(created.idempotency_key);

    server.script({ status: 201, body: { id: 'c-3' } });
    expect(await client().customers.createBusiness(customer, { idempotencyKey: 'crm-42', requestId: 'req-1' })).toEqual({
      id: 'c-3',
      idempotency_key: 'crm-42',
      replayed: false,
    });
    expect(server.received[0].headers).toMatchObject({ 'idempotency-key': 'crm-42', 'x-request-id': 'req-1' });
  });

  it("stops at once on the caller's AbortSignal, during a backoff too", async () => {
    server.script(unavailable({ 'retry-after': '30' }));
    const controller = new AbortController();
    const started = Date.now();
    const call = client().withdrawals.get(7, { signal: controller.signal });
    setImmediate(() => controller.abort());
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('timeouts', () => {
  it('a call with no answer in time fails with PartnerTimeoutError; a per-call timeout overrides the default', async () => {
    server.script({ delayMs: 1_000, body: { id: 7 } });
    const started = Date.now();
    const error = await client({ timeoutMs: 300, retry: { maxAttempts: 1 } })
      .withdrawals.get(7)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(900);

    await expect(client({ timeoutMs: 300 }).withdrawals.get(7, { timeoutMs: 5_000 })).resolves.toEqual({ id: 7 });
  });

  it('a timed-out read is retried, each attempt with its own timeout', async () => {
    server.script({ delayMs: 2_000, body: { id: 1 } }, { body: { id: 7 } });
    await expect(client({ timeoutMs: 500 }).withdrawals.get(7)).resolves.toEqual({ id: 7 });
    expect(server.received).toHaveLength(2);
  });
});

describe('PartnerApiError', () => {
  it('carries the code, HTTP status, request id, field and body', async () => {
    const body = { error: 'invalid_request', message: 'field usdtmicros must be an integer', field: 'usdtmicros', request_id: 'req-9' };
    server.script({ status: 400, body, headers: { 'x-request-id': 'req-9' } });
    const error = (await client()
      .withdrawals.create(WITHDRAWAL)
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error).toBeInstanceOf(PartnerApiError);
    expect({ ...error, name: error.name, message: error.message }).toEqual({
      name: 'PartnerApiError',
      code: 'invalid_request',
      status: 400,
      requestId: 'req-9',
      retryAfterMs: undefined,
      field: 'usdtmicros',
      body,
      message: 'POST /partner/v1/withdrawals/usdt: 400 invalid_request: field usdtmicros must be an integer',
    });
  });

  it("takes the Pix key family's code from `status`, and Retry-After in milliseconds", async () => {
    server.script({ status: 409, body: { status: 'already_exists', message: 'the user already has a key' } });
    await expect(client().pixKeys.create({ document: '52998224725' })).rejects.toMatchObject({
      code: 'already_exists',
      status: 409,
      requestId: 'req-from-server',
    });
    server.script({ status: 429, body: { status: 'rate_limited', message: 'slow' }, headers: { 'retry-after': '2' } });
    await expect(client({ retry: { maxAttempts: 1 } }).pixKeys.get('52998224725')).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 2_000,
    });
  });
});

describe('redirects', () => {
  let elsewhere: TestServer;
  beforeAll(async () => (elsewhere = await new TestServer().start()));
  afterAll(() => elsewhere.stop());

  it('follows a redirect on its own origin with the API key, and one to another origin without it', async () => {
    server.script(
      { status: 307, headers: { location: '/moved/withdrawals/usdt/7' } },
      { status: 308, headers: { location: `${elsewhere.url}/w/7` } },
    );
    elsewhere.script({ status: 200, body: { id: 7 } });
    expect(await client().withdrawals.get(7)).toEqual({ id: 7 });
    expect(server.received.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
      ['/partner/v1/withdrawals/usdt/7', 'pk_test'],
      ['/moved/withdrawals/usdt/7', 'pk_test'],
    ]);
    expect(elsewhere.received.map((r) => [r.url, r.headers['x-api-key']])).toEqual([['/w/7', undefined]]);
  });

  it('turns a POST answered 303 into a GET without its body, and stops after 5 hops with the last answer', async () => {
    server.script({ status: 303, headers: { location: '/see/other' } }, { status: 201, body: { id: 9 } });
    await client().withdrawals.create(WITHDRAWAL);
    expect(server.received.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/partner/v1/withdrawals/usdt', expect.objectContaining({ usdtmicros: 1_000_000 })],
      ['GET', '/see/other', undefined],
    ]);

    server.script({ status: 302, headers: { location: '/again' }, body: { error: 'loop', message: 'again' } });
    const error = (await client()
      .withdrawals.get(1)
      .catch((e: unknown) => e)) as PartnerApiError;
    expect([error.status, server.received.length]).toEqual([302, 6]);
  });
});
