import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ApiClient, pollUntil, requireEnv } from '@partner/testing';
import { gatewayAdminUrl, gatewayUrl, newPartner } from './support/sandbox';

// Production by default, safe by default (docs/adr/0019-production-safe-by-default.md), on the e2e stack:
// the sandbox gateway (GATEWAY_URL, its operator port GATEWAY_ADMIN_URL, the sandbox's ADMIN_API_KEY) and two
// production gateways (SANDBOX=false: OPERATOR_GATEWAY_URLS, OPERATOR_GATEWAY_ADMIN_URLS, their
// PRODUCTION_ADMIN_API_KEY) over the same services and the same database, as a volume a sandbox once used.
// Refusals are read with plain fetch: the document does not describe a route's absence from a port.

const [production] = requireEnv('OPERATOR_GATEWAY_URLS').split(',');
const [productionAdmin] = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
const sandboxOperatorKey = () => requireEnv('ADMIN_API_KEY');
const productionOperatorKey = () => requireEnv('PRODUCTION_ADMIN_API_KEY');

async function answer(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    /* /metrics is text */
  }
  return { status: res.status, body: parsed };
}

/** What only the operator port answers, each with a body where it takes one. */
const OPERATOR_ONLY: Array<[string, string, unknown?]> = [
  ['GET', '/admin/v1/audit-log?limit=1'],
  ['POST', '/admin/v1/partners', { name: 'through the public port' }],
  ['GET', '/readyz'],
  ['GET', '/metrics'],
];

/** Internal endpoints (the services' and the direct replies' paths): no port of the gateway that partners reach answers them. */
const INTERNAL: Array<[string, string, unknown?]> = [
  ['POST', '/internal/v1/queries/events.query.list.v1', { partner_id: randomUUID() }],
  ['POST', '/internal/v1/replies/x', {}],
  ['GET', '/internal'],
];

describe.each([
  ['the sandbox gateway', gatewayUrl, gatewayAdminUrl, sandboxOperatorKey],
  ['a production gateway', () => production, () => productionAdmin, productionOperatorKey],
])('the public port of %s', (_which, publicUrl, adminUrl, operatorKey) => {
  it('answers the operator API, /readyz, /metrics and internal paths 404 not_found, even with a valid operator key', async () => {
    // The router decodes %61 to `a`: the public port judges the path as sent, so this is refused too.
    for (const [method, path, body] of [...OPERATOR_ONLY, ['GET', '/%61dmin/v1/audit-log?limit=1'] as [string, string], ...INTERNAL]) {
      const res = await answer(`${publicUrl()}${path}`, method, { 'x-admin-key': operatorKey() }, body);
      // An internal path may be refused by the router itself (404 without the API's body); never answered.
      const internal = INTERNAL.some(([, p]) => p === path);
      expect({
        method,
        path,
        status: res.status,
        error: internal ? 'not_found' : res.body.error,
        answered: 'response' in (res.body ?? {}),
      }).toEqual({ method, path, status: 404, error: 'not_found', answered: false });
    }
  });

  it('while its operator port answers them with that key, and the partner API only on the public port', async () => {
    const audit = await answer(`${adminUrl()}/admin/v1/audit-log?limit=1`, 'GET', { 'x-admin-key': operatorKey() });
    expect({ status: audit.status, entries: Array.isArray(audit.body.entries) }).toEqual({ status: 200, entries: true });
    expect((await answer(`${adminUrl()}/readyz`, 'GET', {})).status).toBe(200);
    const metrics = await fetch(`${adminUrl()}/metrics`);
    expect({ status: metrics.status, text: (await metrics.text()).includes('http_request_duration_seconds') }).toEqual({
      status: 200,
      text: true,
    });
    // Liveness on both; the partner API and the reference on the public port only.
    for (const url of [publicUrl(), adminUrl()]) expect((await answer(`${url}/healthz`, 'GET', {})).status).toBe(200);
    for (const path of ['/docs/openapi.json', '/provider/docs/openapi.json'])
      expect({ path, status: (await answer(`${publicUrl()}${path}`, 'GET', {})).status }).toEqual({ path, status: 200 });
    for (const path of ['/partner/v1/events', '/docs/openapi.json', '/provider/docs/openapi.json']) {
      expect({ path, status: (await answer(`${adminUrl()}${path}`, 'GET', { 'x-api-key': 'pk_live_whatever' })).status }).toEqual({
        path,
        status: 404,
      });
    }
    for (const [method, path, body] of INTERNAL) {
      expect({ path, status: (await answer(`${adminUrl()}${path}`, method, { 'x-admin-key': operatorKey() }, body)).status }).toEqual({
        path,
        status: 404,
      });
    }
  });
});

describe('keys carry their environment: a production gateway over a database a sandbox used', () => {
  it("refuses the sandbox's operator key with 401 unauthorized saying why, and accepts its own", async () => {
    const refused = await answer(`${productionAdmin}/admin/v1/audit-log?limit=1`, 'GET', { 'x-admin-key': sandboxOperatorKey() });
    expect(refused).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'this operator key belongs to the sandbox: a production gateway does not accept it' },
    });
    expect((await answer(`${productionAdmin}/admin/v1/audit-log?limit=1`, 'GET', { 'x-admin-key': productionOperatorKey() })).status).toBe(
      200,
    );
    // And the other way round: the production key opens no sandbox.
    expect(
      (await answer(`${gatewayAdminUrl()}/admin/v1/audit-log?limit=1`, 'GET', { 'x-admin-key': productionOperatorKey() })).status,
    ).toBe(401);
    expect((await answer(`${gatewayUrl()}/sandbox/v1/partners`, 'POST', { 'x-admin-key': productionOperatorKey() }, {})).status).toBe(401);
  });

  it('refuses a sandbox partner key with 401 unauthorized, which the sandbox accepts; a production key the other way round', async () => {
    const { apiKey } = await newPartner('sandbox partner, production gateway');
    expect(apiKey).toMatch(/^pk_sandbox_/);
    expect((await new ApiClient(gatewayUrl(), { 'x-api-key': apiKey }).get('/partner/v1/events')).status).toBe(200);
    const refused = await new ApiClient(production, { 'x-api-key': apiKey }).get('/partner/v1/events');
    expect({ status: refused.status, body: refused.body }).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'this API key belongs to the sandbox: a production gateway does not accept it' },
    });

    const operator = new ApiClient(productionAdmin, { 'x-admin-key': productionOperatorKey() });
    const partner = await operator.post<{ id: string }>('/admin/v1/partners', { name: 'production partner, sandbox gateway' });
    const key = await operator.post<{ api_key: string }>(`/admin/v1/partners/${partner.body.id}/api-keys`);
    expect(key.body.api_key).toMatch(/^pk_live_/);
    expect((await new ApiClient(production, { 'x-api-key': key.body.api_key }).get('/partner/v1/events')).status).toBe(200);
    const sandboxRefused = await new ApiClient(gatewayUrl(), { 'x-api-key': key.body.api_key }).get('/partner/v1/events');
    expect({ status: sandboxRefused.status, error: sandboxRefused.body.error }).toEqual({ status: 401, error: 'unauthorized' });
  });

  it('goes by the environment stored with the key, not only by its text', async () => {
    // A key whose text says live but whose row says sandbox (what no gateway makes): the row decides.
    const { id: partnerId } = await newPartner('stored environment');
    const key = `pk_live_${randomBytes(32).toString('base64url')}`;
    const db = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await db.connect();
    try {
      await db.query(`INSERT INTO gateway.api_keys (id, partner_id, prefix, hash, environment) VALUES ($1, $2, $3, $4, 'sandbox')`, [
        randomUUID(),
        partnerId,
        key.slice(0, 16),
        createHash('sha256').update(key).digest('hex'),
      ]);
      const asSandboxRow = await new ApiClient(production, { 'x-api-key': key }).get('/partner/v1/events');
      expect({ status: asSandboxRow.status, error: asSandboxRow.body.error }).toEqual({ status: 401, error: 'unauthorized' });
      await db.query(`UPDATE gateway.api_keys SET environment = 'production' WHERE prefix = $1`, [key.slice(0, 16)]);
      // The refusal above left the key in the gateway's negative cache (API_KEY_NEGATIVE_CACHE_MS, 10 s):
      // the row's new environment decides once that entry expires.
      await pollUntil(
        'the key accepted once the row says production',
        () => new ApiClient(production, { 'x-api-key': key }).get('/partner/v1/events').then((r) => r.status),
        (status) => status === 200,
        {
          timeoutMs: 30_000,
          intervalMs: 500,
        },
      );
    } finally {
      await db.end();
    }
  });

  it('has no sandbox route at all: 404 not_found (not 403) with either key, and none in its document', async () => {
    const { apiKey } = await newPartner('sandbox routes in production');
    for (const [path, headers] of [
      ['/sandbox/v1/partners', { 'x-admin-key': productionOperatorKey() }],
      ['/sandbox/v1/users', { 'x-api-key': apiKey }],
      ['/sandbox/v1/pix-in', { 'x-api-key': apiKey }],
    ] as const) {
      for (const url of [production, productionAdmin]) {
        const res = await answer(`${url}${path}`, 'POST', headers, {});
        expect({ url, path, status: res.status, error: res.body.error }).toEqual({ url, path, status: 404, error: 'not_found' });
      }
    }
    const sandboxPaths = async (url: string) =>
      Object.keys((await answer(`${url}/docs/openapi.json`, 'GET', {})).body.paths ?? {}).filter((p) => p.startsWith('/sandbox/'));
    expect(await sandboxPaths(production)).toEqual([]);
    expect((await sandboxPaths(gatewayUrl())).length).toBeGreaterThan(0);
  });
});
