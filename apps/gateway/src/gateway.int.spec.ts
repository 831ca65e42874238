import { ServicePings } from '@partner/contracts';
import { committedDocumentPath, newCpf, USDT_WITHDRAWAL_VIEW_FIELDS, withdrawalRequest } from '@partner/testing';
import { readFileSync } from 'node:fs';
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
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'p',
      api_key: expect.stringMatching(/^pk_sandbox_/),
    });

    const refused = await post('/sandbox/v1/partners', { name: 'p' }, { 'x-admin-key': 'y'.repeat(20) });
    expect(refused).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });

  it('answers 503 service_unavailable about when the request timeout passes if the withdrawals service is down', async () => {
    const apiKey = await gateway.newPartnerKey();

    const res = await post(WITHDRAWALS, withdrawal(), { 'x-api-key': apiKey });

    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      error: 'service_unavailable',
      message: 'the service did not answer in time; the outcome is unknown: retry with the same idempotency_key',
    });
    expect(res.headers['retry-after']).toBe('1');
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
    await gateway.app.inject({
      method: 'DELETE',
      url: `/partner/v1/pix-key/${document}`,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: '{}',
    });
    await gateway.app.inject({ method: 'GET', url: '/no/such/route' });

    const res = await gateway.app.inject({ method: 'GET', url: '/metrics' });

    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain(
      '\nhttp_request_duration_seconds_count{app="gateway",method="DELETE",route="/partner/v1/pix-key/:document",status="400"} 1\n',
    );
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
    for (const service of Object.keys(ServicePings))
      expect({ service, status: body.details[service]?.status }).toEqual({ service, status: 'down' });
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

  it('takes an empty body sent as application/json as no body, without weakening JSON-only or malformed-JSON refusals', async () => {
    const apiKey = await gateway.newPartnerKey();
    const send = (method: 'POST' | 'DELETE' | 'PATCH', url: string, payload: string, contentType = 'application/json') =>
      gateway.app.inject({ method, url, headers: { 'x-api-key': apiKey, 'content-type': contentType }, payload });

    // A route that needs a body names its first missing field, as with no content type at all.
    const withdrawal = await send('POST', WITHDRAWALS, '');
    expect([withdrawal.statusCode, withdrawal.json()]).toEqual([
      400,
      expect.objectContaining({ error: 'invalid_request', field: 'document' }),
    ]);
    const deletion = await send('DELETE', `/partner/v1/pix-key/${newCpf()}`, '');
    expect([deletion.statusCode, deletion.json()]).toEqual([
      400,
      expect.objectContaining({ status: 'invalid_request', field: 'idempotency_key' }),
    ]);
    // PATCH /events/{id}: the id is checked first; a body with a field is refused, naming it.
    const badId = await send('PATCH', '/partner/v1/events/not-a-uuid', '');
    expect([badId.statusCode, badId.json()]).toEqual([400, expect.objectContaining({ error: 'invalid_request', field: 'id' })]);
    const withField = await send('PATCH', '/partner/v1/events/7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10', '{"delivered":true}');
    expect([withField.statusCode, withField.json()]).toEqual([
      400,
      expect.objectContaining({ error: 'invalid_request', field: 'delivered' }),
    ]);
    // Malformed JSON is still 400 in the family's shape; another content type still 415, empty or not.
    const malformed = await send('PATCH', '/partner/v1/events/7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10', '{');
    expect([malformed.statusCode, malformed.json()]).toEqual([
      400,
      expect.objectContaining({ error: 'invalid_request', message: 'request body is not valid JSON' }),
    ]);
    const malformedPixKey = await send('DELETE', `/partner/v1/pix-key/${newCpf()}`, '{');
    expect([malformedPixKey.statusCode, malformedPixKey.json()]).toEqual([400, expect.objectContaining({ status: 'invalid_request' })]);
    for (const payload of ['', '{}']) {
      const text = await send('PATCH', '/partner/v1/events/7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10', payload, 'text/plain');
      expect([payload, text.statusCode, text.json()]).toEqual([payload, 415, expect.objectContaining({ error: 'unsupported_media_type' })]);
    }
  });

  it('refuses an invalid fee_choice with 422 invalid_fee at the edge, without waiting for Kafka', async () => {
    const apiKey = await gateway.newPartnerKey();

    const res = await post(WITHDRAWALS, withdrawal({ fee_choice: 'ULTRA' }), { 'x-api-key': apiKey });

    // Had it gone to Kafka it would have waited for the timeout and answered 503.
    expect(res).toMatchObject({ status: 422, body: { error: 'invalid_fee', field: 'fee_choice' } });
    expect(res.elapsed).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('refuses a malformed id or CPF in the path of a read at the edge: 400 in the family shape, without waiting for Kafka', async () => {
    const apiKey = await gateway.newPartnerKey();
    const cases: Array<[string, Record<string, string>]> = [
      [`${WITHDRAWALS}/0`, { error: 'invalid_request', field: 'id' }],
      [`${WITHDRAWALS}/1e3`, { error: 'invalid_request', field: 'id' }],
      ['/partner/v1/pix-key/52998224724', { status: 'invalid_document', field: 'document' }],
      ['/partner/v1/customers/business/not-a-uuid', { error: 'invalid_request', field: 'id' }],
    ];
    for (const [url, body] of cases) {
      const started = Date.now();
      const res = await gateway.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({
        url,
        status: 400,
        body: expect.objectContaining({ ...body, message: expect.any(String) }),
      });
      expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
    }
  });

  it('serves an OpenAPI document describing the withdrawal body and the API key', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      paths: Record<string, Record<string, unknown>>;
      components: {
        schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }>;
        securitySchemes: Record<string, unknown>;
      };
    }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/partner/v1/withdrawals/usdt',
        '/partner/v1/withdrawals/usdt/{id}',
        '/partner/v1/pix-key/{document}',
        '/partner/v1/customers/business/{id}',
        '/partner/v1/events',
        '/partner/v1/events/{id}',
      ]),
    );
    const read = doc.paths['/partner/v1/withdrawals/usdt/{id}'].get as { responses: Record<string, unknown> };
    expect(Object.keys(read.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(Object.keys(doc.components.schemas.UsdtWithdrawalView.properties)).toEqual(USDT_WITHDRAWAL_VIEW_FIELDS);
    expect(Object.keys(doc.components.schemas.PixKeyView.properties)).toEqual([
      'document',
      'key_type',
      'key',
      'status',
      'created_at',
      'last_updated_at',
    ]);
    const body = doc.components.schemas.CreateUsdtWithdrawalRequest;
    expect(Object.keys(body.properties).sort()).toEqual([
      'address',
      'beneficiary',
      'document',
      'fee_choice',
      'idempotency_key',
      'network',
      'usdtmicros',
    ]);
    expect(body.required?.sort()).toEqual(['address', 'document', 'fee_choice', 'idempotency_key', 'network', 'usdtmicros']);
    expect(doc.components.securitySchemes.partner).toMatchObject({ type: 'apiKey', name: 'X-API-Key', in: 'header' });
  });

  it('titles and describes the whole API in its OpenAPI document: every family, authentication, errors, idempotency', async () => {
    const doc = (await gateway.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json<{
      info: { title: string; description: string };
      paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
      tags: Array<{ name: string; description: string }>;
    }>();
    for (const topic of ['USDT withdrawals', 'Pix keys', 'Pix inflows', 'business customers', 'events feed']) {
      expect(doc.info.title.toLowerCase()).toContain(topic.toLowerCase());
    }
    const description = doc.info.description;
    for (const path of [
      '/partner/v1/withdrawals/usdt',
      '/partner/v1/pix-key',
      '/partner/v1/pix-in',
      '/partner/v1/customers/business',
      '/partner/v1/events',
    ]) {
      expect(description).toContain(path);
      expect(Object.keys(doc.paths).some((p) => p.startsWith(path))).toBe(true);
    }
    for (const section of ['**Authentication**', '**Errors**', '**Idempotency**', 'X-API-Key', 'idempotency_key_reused', '`success`'])
      expect(description).toContain(section);
    expect(doc.tags.map((t) => t.name)).toEqual(
      expect.arrayContaining(['withdrawals', 'pix-keys', 'pix-in', 'business customers', 'events']),
    );
    // PATCH /events/{id} takes no body: documented as optional.
    expect(doc.paths['/partner/v1/events/{id}'].patch.requestBody?.required).toBe(false);
  });

  it.each([
    ['/docs', committedDocumentPath('partner')],
    ['/admin/docs', committedDocumentPath('operator')],
    ['/provider/docs', committedDocumentPath('provider')],
  ])("serves at %s/openapi.json the committed OpenAPI document (a sandbox gateway's), and YAML of it", async (base, committed) => {
    const json = await gateway.app.inject({ method: 'GET', url: `${base}/openapi.json` });
    expect(json.json()).toEqual(JSON.parse(readFileSync(committed, 'utf8')));
    const yaml = await gateway.app.inject({ method: 'GET', url: `${base}/openapi.yaml` });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toBe(readFileSync(committed.replace(/\.json$/, '.yaml'), 'utf8'));
  });

  it("keeps the three documents apart: partner routes (sandbox ones marked), the operator API, the Pix provider's route; money typed integer", async () => {
    type Doc = {
      paths: Record<string, Record<string, { 'x-sandbox'?: boolean; tags?: string[] }>>;
      servers: { url: string }[];
      components: { schemas: Record<string, { properties?: Record<string, { type?: string; format?: string }> }> };
    };
    const partner = (await gateway.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json<Doc>();
    const operator = (await gateway.app.inject({ method: 'GET', url: '/admin/docs/openapi.json' })).json<Doc>();
    const provider = (await gateway.app.inject({ method: 'GET', url: '/provider/docs/openapi.json' })).json<Doc>();
    expect(Object.keys(partner.paths).filter((p) => p.startsWith('/admin') || p.startsWith('/provider'))).toEqual([]);
    expect(Object.keys(provider.paths)).toEqual(['/provider/v2/pix/inflows']);
    expect(Object.keys(operator.paths).every((p) => p.startsWith('/admin/v1/') || p === '/healthz')).toBe(true);
    expect(Object.keys(operator.paths)).toEqual(
      expect.arrayContaining(['/admin/v1/partners', '/admin/v1/partners/{partner_id}/users/{document}/credits', '/admin/v1/audit-log']),
    );
    const sandboxOperations = Object.entries(partner.paths)
      .filter(([p]) => p.startsWith('/sandbox/'))
      .flatMap(([, item]) => Object.values(item));
    expect(sandboxOperations.length).toBeGreaterThan(0);
    for (const operation of sandboxOperations) expect(operation).toMatchObject({ 'x-sandbox': true, tags: ['sandbox'] });
    expect(partner.servers.map((s) => s.url)).toEqual(['/', 'https://api.partner.example', 'https://sandbox.partner.example']);
    const properties = (doc: Doc) => Object.values(doc.components.schemas).flatMap((schema) => Object.entries(schema.properties ?? {}));
    for (const [name, property] of [...properties(partner), ...properties(operator), ...properties(provider)].filter(([name]) =>
      /(micros|_cents|_bps)$/.test(name),
    )) {
      expect({ name, ...property }).toMatchObject(
        name.endsWith('micros') ? { name, type: 'integer', format: 'int64' } : { name, type: 'integer' },
      );
    }
    expect(properties(partner).map(([name]) => name)).toEqual(expect.arrayContaining(['usdtmicros', 'ownership_bps', 'amount_cents']));
    expect(properties(operator).map(([name]) => name)).toEqual(expect.arrayContaining(['available_usdt_micros', 'usdt_micros']));
    expect(properties(provider).map(([name]) => name)).toContain('amount_cents');
    expect(JSON.stringify([partner, operator, provider])).not.toContain('"type":"number"');
  });

  it("describes the Pix provider's signature as its document's one security scheme, and no rate limit on its answers", async () => {
    type Doc = {
      components: { securitySchemes: Record<string, { type: string; in: string; name: string; description: string }> };
      paths: Record<string, Record<string, { security: object[]; responses: Record<string, { headers?: object }> }>>;
    };
    const provider = (await gateway.app.inject({ method: 'GET', url: '/provider/docs/openapi.json' })).json<Doc>();
    const partner = (await gateway.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json<Doc>();
    const schemes = provider.components.securitySchemes;
    expect(Object.keys(schemes)).toEqual(['pix-provider']);
    expect(schemes['pix-provider']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Pix-Signature' });
    for (const part of ['t=<unix seconds>,v1=<hex>', 'HMAC-SHA256', '<t>.<raw body>', 'exact bytes', '300 s', 'invalid_signature'])
      expect(schemes['pix-provider'].description).toContain(part);
    const operation = provider.paths['/provider/v2/pix/inflows'].post;
    expect(operation.security).toEqual([{ 'pix-provider': [] }]);
    for (const response of Object.values(operation.responses)) expect(Object.keys(response.headers ?? {})).not.toContain('RateLimit');
    expect(Object.keys(partner.components.securitySchemes)).not.toContain('pix-provider');
  });

  it('serves the API reference page and its Swagger UI files from the gateway itself, with a policy that keeps it there', async () => {
    const page = await gateway.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    // Every script and stylesheet the page loads is one of ours, under /docs.
    const urls = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url).toMatch(/^\/docs\//);
      const res = await gateway.app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
    const init = await gateway.app.inject({ method: 'GET', url: '/docs/api-reference.js' });
    expect(init.body).toContain('"/docs/openapi.json"');
    expect(init.body).toContain('validatorUrl: null');
  });
});
