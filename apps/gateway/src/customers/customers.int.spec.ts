import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { GatewayUnderTest } from '../gateway-app.spec-support';

// Integration: the real gateway with no service running (see GatewayUnderTest). What the contract
// class refuses must be answered at the edge, never after a round trip to the customers service.

const URL = '/partner/v1/customers/business';
const gateway = new GatewayUnderTest();
const { REQUEST_TIMEOUT_MS } = GatewayUnderTest;
const post = gateway.post.bind(gateway);
let apiKey: string;

beforeAll(async () => {
  await gateway.start();
  apiKey = await gateway.newPartnerKey('customers int');
}, 90_000);
afterAll(() => gateway.stop(), 30_000);

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
    expect(Object.keys(res.body).sort()).toEqual(['error', 'field', 'message', 'request_id']);
    // Had it gone to Kafka it would have waited for the timeout and answered 503.
    expect(res.elapsed).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('sends a valid registration to the customers service (503 when it does not answer)', async () => {
    const res = await post(URL, BUSINESS_CUSTOMER_EXAMPLE, { 'x-api-key': apiKey });
    expect(res).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
    expect(res.elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  }, 15_000);

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space inside', 'key 1'],
    ['a character outside ASCII', 'chave-ç'],
    ['sent twice (the server joins the two with ", ")', 'key-1, key-2'],
  ])('answers 400 invalid_request naming the Idempotency-Key header at once: %s', async (_what, key) => {
    const res = await post(URL, BUSINESS_CUSTOMER_EXAMPLE, { 'x-api-key': apiKey, 'idempotency-key': key });
    expect(res).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        field: 'Idempotency-Key',
        message: 'Idempotency-Key must be 1-255 visible ASCII characters (! to ~, no space)',
      },
    });
    expect(res.elapsed).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('reports a bad Idempotency-Key before the body', async () => {
    const res = await post(URL, { ...BUSINESS_CUSTOMER_EXAMPLE, cnpj: '1' }, { 'x-api-key': apiKey, 'idempotency-key': '' });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request', field: 'Idempotency-Key' } });
  });

  it('keeps refusing the key as a body field: it is a header', async () => {
    const res = await post(URL, { ...BUSINESS_CUSTOMER_EXAMPLE, idempotency_key: 'k-1' }, { 'x-api-key': apiKey });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', field: 'idempotency_key', message: expect.stringMatching(/unknown/) },
    });
  });

  it('takes a key of 1 to 255 visible ASCII characters, no longer: the service gets it (503 when it does not answer)', async () => {
    for (const key of ['!', `${'~'.repeat(127)}${'a'.repeat(128)}`]) {
      const res = await post(URL, BUSINESS_CUSTOMER_EXAMPLE, { 'x-api-key': apiKey, 'idempotency-key': key });
      expect(res).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
    }
    const longer = await post(URL, BUSINESS_CUSTOMER_EXAMPLE, { 'x-api-key': apiKey, 'idempotency-key': 'a'.repeat(256) });
    expect(longer).toMatchObject({ status: 400, body: { field: 'Idempotency-Key' } });
  }, 15_000);

  it('needs an API key', async () => {
    expect(await post(URL, BUSINESS_CUSTOMER_EXAMPLE)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });

  it('is described in the OpenAPI document with its nested schemas, fields in the documented order', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    const doc = res.json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: {
        schemas: Record<string, { properties: Record<string, { $ref?: string; items?: { $ref?: string } }>; required?: string[] }>;
      };
    }>();
    expect(Object.keys(doc.paths[URL].post.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '409', '422']));
    const { schemas } = doc.components;
    const body = schemas.CreateBusinessCustomerRequest;
    expect(Object.keys(body.properties)).toEqual([
      'cnpj',
      'legal_name',
      'trade_name',
      'email',
      'phone',
      'address',
      'owners',
      'metadata',
      'config',
    ]);
    expect(body.required?.sort()).toEqual(['address', 'cnpj', 'email', 'legal_name', 'owners', 'phone']);
    expect(body.properties.owners.items?.$ref).toBe('#/components/schemas/CustomerOwner');
    expect(schemas.CustomerOwner.required?.sort()).toEqual([
      'address',
      'birth_date',
      'document',
      'email',
      'name',
      'nationality_country_code',
      'owner_type',
      'ownership',
      'phone',
      'tax_residence_country_code',
    ]);
    expect(Object.keys(schemas.CustomerAddress.properties)).toEqual([
      'street',
      'number',
      'complement',
      'neighborhood',
      'city',
      'state',
      'postal_code',
    ]);
    expect(Object.keys(schemas.OwnerOwnership.properties)).toEqual(['ownership_type', 'ownership_bps']);
  });
});
