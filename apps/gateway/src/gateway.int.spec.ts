import { ServicePings } from '@partner/contracts';
import { newCpf, withdrawalRequest } from '@partner/testing';
import { GatewayUnderTest } from './gateway-app.spec-support';

// Integration: the real gateway with no service running (see GatewayUnderTest). Whatever needs a
// service must therefore answer 503 within the request timeout, and whatever is refused at the edge
// must never wait for Kafka at all.

const gateway = new GatewayUnderTest();
const { ADMIN_KEY, REQUEST_TIMEOUT_MS } = GatewayUnderTest;
const post = gateway.post.bind(gateway);

beforeAll(() => gateway.start(), 90_000);
afterAll(() => gateway.stop(), 30_000);

const withdrawal = (overrides: Record<string, unknown> = {}) => withdrawalRequest(newCpf(), overrides);

const WITHDRAWALS = '/partner/v1/withdrawals/usdt';

describe('gateway with no service running (Fastify + Kafka + PostgreSQL)', () => {
  it('creates a sandbox partner with the admin key (201, id and API key), and refuses without it', async () => {
    const created = await post('/sandbox/v1/partners', { name: 'p' }, { 'x-admin-key': ADMIN_KEY });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'p', api_key: expect.stringMatching(/^pk_sandbox_/) });

    const refused = await post('/sandbox/v1/partners', { name: 'p' }, { 'x-admin-key': 'y'.repeat(20) });
    expect(refused).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });

  it('answers 503 service_unavailable about when the request timeout passes if the withdrawals service is down', async () => {
    const apiKey = await gateway.newPartnerKey();

    const res = await post(WITHDRAWALS, withdrawal(), { 'x-api-key': apiKey });

    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'service_unavailable', message: expect.any(String) });
    expect(res.elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(res.elapsed).toBeLessThan(5000);
  }, 15_000);

  it('GET /healthz answers 200 while services are down', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /metrics counts answered requests by route pattern and status, never by raw path (no documents in labels)', async () => {
    const apiKey = await gateway.newPartnerKey();
    const document = newCpf();
    await gateway.app.inject({ method: 'DELETE', url: `/partner/v1/pix-key/${document}`, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload: '{}' });
    await gateway.app.inject({ method: 'GET', url: '/no/such/route' });

    const res = await gateway.app.inject({ method: 'GET', url: '/metrics' });

    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('\nhttp_request_duration_seconds_count{app="gateway",method="DELETE",route="/partner/v1/pix-key/:document",status="400"} 1\n');
    expect(res.body).toContain('\nhttp_request_duration_seconds_count{app="gateway",method="GET",route="unmatched",status="404"} 1\n');
    expect(res.body).toMatch(/^process_cpu_user_seconds_total\{app="gateway"\} /m);
    expect(res.body).not.toContain(document);
  });

  it('GET /readyz answers 503 with the broker and database up and every service down', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/readyz' });

    expect(res.statusCode).toBe(503);
    const body = res.json<{ status: string; details: Record<string, { status: string }> }>();
    expect(body.status).toBe('error');
    expect(body.details.kafka.status).toBe('up');
    expect(body.details.database.status).toBe('up');
    for (const service of Object.keys(ServicePings)) expect({ service, status: body.details[service]?.status }).toEqual({ service, status: 'down' });
  }, 15_000);

  it('refuses a body over BODY_LIMIT_BYTES with 413 payload_too_large', async () => {
    const apiKey = await gateway.newPartnerKey();
    const huge = withdrawal({ document: 'x'.repeat(gateway.config.BODY_LIMIT_BYTES + 1) });

    const res = await post(WITHDRAWALS, huge, { 'x-api-key': apiKey });

    expect(res).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
  });

  it('refuses a text/plain body with 415 unsupported_media_type', async () => {
    const apiKey = await gateway.newPartnerKey();

    const res = await post(WITHDRAWALS, JSON.stringify(withdrawal()), { 'x-api-key': apiKey, 'content-type': 'text/plain' });

    expect(res).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
  });

  it('refuses malformed JSON with 400 invalid_request', async () => {
    const apiKey = await gateway.newPartnerKey();

    const res = await post(WITHDRAWALS, '{"document": "1', { 'x-api-key': apiKey });

    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('refuses an invalid fee_choice with 422 invalid_fee at the edge, without waiting for Kafka', async () => {
    const apiKey = await gateway.newPartnerKey();

    const res = await post(WITHDRAWALS, withdrawal({ fee_choice: 'ULTRA' }), { 'x-api-key': apiKey });

    // Had it gone to Kafka it would have waited for the timeout and answered 503.
    expect(res).toMatchObject({ status: 422, body: { error: 'invalid_fee', field: 'fee_choice' } });
    expect(res.elapsed).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('serves an OpenAPI document describing the withdrawal body and the API key', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }>; securitySchemes: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/partner/v1/withdrawals/usdt', '/partner/v1/events', '/partner/v1/events/{id}']));
    const body = doc.components.schemas.CreateUsdtWithdrawalRequest;
    expect(Object.keys(body.properties).sort()).toEqual(['address', 'document', 'fee_choice', 'idempotency_key', 'network', 'usdtmicros']);
    expect(body.required?.sort()).toEqual(['address', 'document', 'fee_choice', 'idempotency_key', 'network', 'usdtmicros']);
    expect(doc.components.securitySchemes.partner).toMatchObject({ type: 'apiKey', name: 'X-API-Key', in: 'header' });
  });
});
