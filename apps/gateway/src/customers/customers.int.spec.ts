import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@partner/config';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { requireEnv } from '@partner/testing';
import { GatewayConfig } from '../config/gateway.config';
import { createGatewayApp } from '../gateway-app';

// Integration: the real gateway (Fastify, Kafka, PostgreSQL) with no service running, as in
// gateway.int.spec.ts. What the contract class refuses must be answered at the edge, never after a
// round trip to the customers service.

const ADMIN_KEY = 'x'.repeat(20);
const REQUEST_TIMEOUT_MS = 1500;
const URL = '/partner/v1/customers/business';
const config = loadConfig(GatewayConfig, {
  ...process.env,
  KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
  DATABASE_URL: requireEnv('DATABASE_URL'),
  SANDBOX: 'true',
  ADMIN_API_KEY: ADMIN_KEY,
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  PORT: '0',
  LOG_LEVEL: process.env.TEST_LOGS ? (process.env.LOG_LEVEL ?? 'info') : 'silent',
});

let app: NestFastifyApplication;
let apiKey: string;

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  const started = Date.now();
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>(), elapsed: Date.now() - started };
}

beforeAll(async () => {
  app = await createGatewayApp(config, { logs: Boolean(process.env.TEST_LOGS) });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const partner = await post('/sandbox/v1/partners', { name: 'customers int' }, { 'x-admin-key': ADMIN_KEY });
  apiKey = String(partner.body.api_key);
}, 90_000);

afterAll(() => app?.close(), 30_000);

const withOwner = (changes: Record<string, unknown>) => ({
  ...BUSINESS_CUSTOMER_EXAMPLE,
  owners: [{ ...BUSINESS_CUSTOMER_EXAMPLE.owners[0], ...changes }, BUSINESS_CUSTOMER_EXAMPLE.owners[1]],
});

describe('POST /partner/v1/customers/business at the gateway (no service running)', () => {
  it.each([
    ['invalid_cnpj', { ...BUSINESS_CUSTOMER_EXAMPLE, cnpj: '12ABC34501DE36' }, 'cnpj', /^cnpj is invalid/],
    ['invalid_phone', { ...BUSINESS_CUSTOMER_EXAMPLE, phone: '+551187654321' }, 'phone', /^phone is invalid/],
    ['invalid_owner', withOwner({ document: '52998224724' }), 'owners.0.document', /owner CPF/],
    ['invalid_request', withOwner({ birth_date: '2023-02-30' }), 'owners.0.birth_date', /^owners\.0\.birth_date must be a real date/],
  ])('answers 400 %s in the {error, message} shape at once', async (error, body, field, message) => {
    const res = await post(URL, body, { 'x-api-key': apiKey });
    expect(res).toMatchObject({ status: 400, body: { error, field, message: expect.stringMatching(message) } });
    expect(Object.keys(res.body).sort()).toEqual(['error', 'field', 'message']);
    // Had it gone to Kafka it would have waited for the timeout and answered 503.
    expect(res.elapsed).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('sends a valid registration to the customers service (503 when it does not answer)', async () => {
    const res = await post(URL, BUSINESS_CUSTOMER_EXAMPLE, { 'x-api-key': apiKey });
    expect(res).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
    expect(res.elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  }, 15_000);

  it('needs an API key', async () => {
    expect(await post(URL, BUSINESS_CUSTOMER_EXAMPLE)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });

  it('is described in the OpenAPI document with its nested schemas, fields in the order of spec 2.2', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/openapi.json' });
    const doc = res.json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, { $ref?: string; items?: { $ref?: string } }>; required?: string[] }> };
    };
    expect(Object.keys(doc.paths[URL].post.responses)).toEqual(expect.arrayContaining(['201', '400', '409']));
    const { schemas } = doc.components;
    const body = schemas.CreateBusinessCustomerRequest;
    expect(Object.keys(body.properties)).toEqual(['cnpj', 'legal_name', 'trade_name', 'email', 'phone', 'address', 'owners', 'metadata', 'config']);
    expect(body.required?.sort()).toEqual(['address', 'cnpj', 'email', 'legal_name', 'owners', 'phone']);
    expect(body.properties.owners.items?.$ref).toBe('#/components/schemas/CustomerOwner');
    expect(schemas.CustomerOwner.required?.sort()).toEqual(
      ['address', 'birth_date', 'document', 'email', 'name', 'nationality_country_code', 'owner_type', 'ownership', 'phone', 'tax_residence_country_code'],
    );
    expect(Object.keys(schemas.CustomerAddress.properties)).toEqual(['street', 'number', 'complement', 'neighborhood', 'city', 'state', 'postal_code']);
    expect(Object.keys(schemas.OwnerOwnership.properties)).toEqual(['ownership_type', 'ownership_bps']);
  });
});
