import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { randomUUID } from 'node:crypto';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { ApiClient, ApiResponse, pollUntil, registeredExampleCustomer } from '@partner/testing';
import { FeedEvent, listEvents, newPartner } from './support/sandbox';

const URL = '/partner/v1/customers/business';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Body = Record<string, unknown>;

/** The example body with a CNPJ of its own and the value at `path` (dots, numeric indexes) replaced or, when `undefined`, removed. */
function customer(changes: Record<string, unknown> = {}): Body {
  const body = structuredClone(BUSINESS_CUSTOMER_EXAMPLE) as Body;
  body.cnpj = generateCnpj({ version: 2 });
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce<Body>((node, key) => node[key] as Body, body);
    if (value === undefined) delete parent[keys[keys.length - 1]];
    else parent[keys[keys.length - 1]] = value;
  }
  return body;
}

const customerEvents = (events: FeedEvent[]) => events.filter((e) => e.type === 'business_customer');

async function register(api: ApiClient, body: Body): Promise<string> {
  const res = await api.post(URL, body);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

const eventOf = (api: ApiClient, id: string) =>
  pollUntil(
    'the business_customer event',
    () => listEvents(api),
    (all) => all.some((e) => e.resource_id === id),
  ).then((all) => all.find((e) => e.resource_id === id) as FeedEvent);

const getCustomer = (api: ApiClient, id: string) => api.get(`${URL}/${id}`);

describe('Business customers end to end', () => {
  it('registers a customer: 201 {id}, then a business_customer registered event carrying metadata.external_id', async () => {
    const { api } = await newPartner();
    const body = customer({ metadata: { external_id: 'crm-7781', segment: 'retail' } });

    const res = await api.post(URL, body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(UUID) });
    const id = res.body.id as string;

    const event = await eventOf(api, id);
    expect(event).toMatchObject({ type: 'business_customer', state: 'registered', resource_id: id, delivered: false });
    expect(event.id).toMatch(UUID);
    expect(Number.isInteger(event.created_at)).toBe(true);
    expect(event.data).toEqual({
      ...registeredExampleCustomer(id, body.cnpj as string),
      metadata: { external_id: 'crm-7781', segment: 'retail' },
      created_at: event.created_at,
    });

    expect((await api.patch(`/partner/v1/events/${event.id}`)).status).toBe(200);
    expect(customerEvents(await listEvents(api))).toEqual([]);
  });

  it('reads a registration back: the fields as sent, its id and created_at (integer Unix seconds)', async () => {
    const { api } = await newPartner();
    const body = customer({ metadata: { external_id: 'crm-9', tags: ['vip'], score: 7 } });
    const id = await register(api, body);
    const read = await getCustomer(api, id);
    expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: { id, ...body, created_at: expect.any(Number) } });
    expect(Number.isInteger(read.body.created_at)).toBe(true);
    expect(read.body.created_at).toBe((await eventOf(api, id)).data.created_at);

    // Only the required fields: what was left out stays out (no nulls, no defaults filled in).
    const minimal = customer({
      trade_name: undefined,
      metadata: undefined,
      config: undefined,
      'address.complement': undefined,
      'owners.0.social_name': undefined,
    });
    const minimalId = await register(api, minimal);
    const minimalRead = await getCustomer(api, minimalId);
    expect({ status: minimalRead.status, body: minimalRead.body }).toEqual({
      status: 200,
      body: { id: minimalId, ...minimal, created_at: expect.any(Number) },
    });
    expect(['trade_name', 'metadata', 'config'].filter((key) => key in minimalRead.body)).toEqual([]);
    expect('complement' in (minimalRead.body.address as Body)).toBe(false);
  });

  it("GET answers 404 not_found for an unknown id and for another partner's customer, 400 invalid_request for a malformed id", async () => {
    const owner = await newPartner();
    const other = await newPartner();
    const id = await register(owner.api, customer());
    for (const res of [await getCustomer(owner.api, '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41'), await getCustomer(other.api, id)]) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: expect.objectContaining({ error: 'not_found', message: expect.any(String) }),
      });
    }
    for (const malformed of ['not-a-uuid', '123', `${id}0`]) {
      const res = await getCustomer(owner.api, malformed);
      expect({ malformed, status: res.status, body: res.body }).toEqual({
        malformed,
        status: 400,
        body: expect.objectContaining({ error: 'invalid_request', field: 'id', message: expect.any(String) }),
      });
    }
    expect((await getCustomer(owner.api, id)).status).toBe(200);
  });

  it('accepts the alphanumeric CNPJ (IN RFB 2.229/2024) as well as the numeric one', async () => {
    const { api } = await newPartner();
    const alphanumeric = await api.post(URL, customer({ cnpj: '12ABC34501DE35' }));
    expect({ status: alphanumeric.status, body: alphanumeric.body }).toEqual({ status: 201, body: { id: expect.stringMatching(UUID) } });
    expect((await eventOf(api, alphanumeric.body.id as string)).data.cnpj).toBe('12ABC34501DE35');

    const numeric = await api.post(URL, customer({ cnpj: '11222333000181' }));
    expect({ status: numeric.status, body: numeric.body }).toEqual({ status: 201, body: { id: expect.stringMatching(UUID) } });
  });

  it('registers with only the required fields', async () => {
    const { api } = await newPartner();
    const id = await register(
      api,
      customer({
        trade_name: undefined,
        metadata: undefined,
        config: undefined,
        'address.complement': undefined,
        'owners.0.social_name': undefined,
      }),
    );
    expect((await eventOf(api, id)).data).toMatchObject({
      trade_name: null,
      metadata: {},
      config: { auto_send_owner_sms: false, auto_send_owner_email: false },
    });
  });

  it('409 already_exists when the partner registers the same CNPJ again; the first registration stands', async () => {
    const { api } = await newPartner();
    const body = customer();
    const id = await register(api, body);

    const again = await api.post(URL, { ...body, legal_name: 'Other Name Ltda' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'already_exists', message: expect.stringMatching(/already registered/), field: 'cnpj', id });

    await eventOf(api, id);
    const events = customerEvents(await listEvents(api));
    expect(events.map((e) => [e.resource_id, e.data.legal_name])).toEqual([[id, 'Acme Pagamentos Ltda']]);
  });

  describe('retries under an Idempotency-Key', () => {
    const keyed = (api: ApiClient, body: Body, key: string) => api.request('POST', URL, body, { 'idempotency-key': key });
    /** An answer as a whole: its status and its error body (which always carries the request's id). */
    const expectError = (res: ApiResponse, status: number, body: Body) =>
      expect({ status: res.status, body: res.body }).toEqual({ status, body: { ...body, request_id: expect.any(String) } });

    it('201, then 200 with Idempotent-Replayed: true and the same id for the same request (fields in any order); one customer, one event', async () => {
      const { api } = await newPartner();
      const body = customer();
      const key = randomUUID();
      const first = await keyed(api, body, key);
      expect({ status: first.status, body: first.body, replayed: first.headers.get('idempotent-replayed') }).toEqual({
        status: 201,
        body: { id: expect.stringMatching(UUID) },
        replayed: null,
      });
      const id = first.body.id as string;
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      for (const again of [body, reordered]) {
        const res = await keyed(api, again, key);
        expect({ status: res.status, body: res.body, replayed: res.headers.get('idempotent-replayed') }).toEqual({
          status: 200,
          body: { id },
          replayed: 'true',
        });
      }
      await eventOf(api, id);
      const listed = await api.get(`${URL}?cnpj=${body.cnpj as string}`);
      expect((listed.body.customers as Body[]).map((c) => c.id)).toEqual([id]);
      expect(customerEvents(await listEvents(api, 'limit=1000')).map((e) => e.resource_id)).toEqual([id]);
    });

    it('422 idempotency_key_reused naming the header for another registration under a used key', async () => {
      const { api } = await newPartner();
      const key = `crm:${randomUUID()}`;
      const body = customer();
      expect((await keyed(api, body, key)).status).toBe(201);
      for (const other of [customer(), { ...body, legal_name: 'Outra Ltda' }]) {
        expectError(await keyed(api, other, key), 422, {
          error: 'idempotency_key_reused',
          field: 'Idempotency-Key',
          message: 'Idempotency-Key was already used with a different registration',
        });
      }
      // Another partner's keys are its own.
      expect((await keyed((await newPartner()).api, customer(), key)).status).toBe(201);
    });

    it('409 already_exists names the registered id under a new key; the refused key binds nothing', async () => {
      const { api } = await newPartner();
      const body = customer();
      const id = await register(api, body);
      const key = randomUUID();
      expectError(await keyed(api, body, key), 409, {
        error: 'already_exists',
        field: 'cnpj',
        message: expect.stringMatching(/already registered/),
        id,
      });
      const corrected = await keyed(api, customer(), key);
      expect(corrected.status).toBe(201);
      expect(corrected.body.id).not.toBe(id);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['a space', 'my key'],
    ])('400 invalid_request naming the header for a bad Idempotency-Key: %s', async (_what, key) => {
      const { api } = await newPartner();
      const res = await keyed(api, customer(), key);
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 400,
        body: {
          error: 'invalid_request',
          field: 'Idempotency-Key',
          message: expect.stringMatching(/^Idempotency-Key must be 1-255 visible ASCII/),
        },
      });
    });
  });

  it('partners are apart: another partner registers the same CNPJ and sees only its own events', async () => {
    const first = await newPartner();
    const second = await newPartner();
    const body = customer();
    const firstId = await register(first.api, body);
    const secondId = await register(second.api, body);
    expect(secondId).not.toBe(firstId);

    await eventOf(first.api, firstId);
    await eventOf(second.api, secondId);
    expect(customerEvents(await listEvents(first.api, 'limit=1000')).map((e) => e.resource_id)).toEqual([firstId]);
    expect(customerEvents(await listEvents(second.api, 'limit=1000')).map((e) => e.resource_id)).toEqual([secondId]);
    // Another partner's event is not there to mark either.
    const [firstEvent] = customerEvents(await listEvents(first.api));
    expect((await second.api.patch(`/partner/v1/events/${firstEvent.id}`)).status).toBe(404);
  });

  it('registers a company owned 100 % by one partner that names a representative owning 0 bps', async () => {
    const { api } = await newPartner();
    const id = await register(api, customer({ 'owners.0.ownership.ownership_bps': 10_000, 'owners.1.ownership.ownership_bps': 0 }));
    expect((await eventOf(api, id)).data.owners).toEqual([
      expect.objectContaining({ owner_type: 'partner', ownership: { ownership_type: 'direct', ownership_bps: 10_000 } }),
      expect.objectContaining({ owner_type: 'representative', ownership: { ownership_type: 'indirect', ownership_bps: 0 } }),
    ]);
    // Only a representative may own nothing.
    const partnerWithNothing = await api.post(
      URL,
      customer({ 'owners.1.owner_type': 'other_partner', 'owners.1.ownership.ownership_bps': 0 }),
    );
    expect(partnerWithNothing.status).toBe(400);
    expect(partnerWithNothing.body).toMatchObject({
      error: 'invalid_request',
      field: 'owners.1.ownership.ownership_bps',
      message: expect.stringMatching(/only a representative may own 0/),
    });
  });

  it('refuses a phone with the trunk zero (+55011...: E.164 is +5511...) and the all-zeros CEP', async () => {
    const { api } = await newPartner();
    const phone = await api.post(URL, customer({ 'owners.0.phone': '+55011987654321' }));
    expect(phone.status).toBe(400);
    expect(phone.body).toMatchObject({
      error: 'invalid_phone',
      field: 'owners.0.phone',
      message: expect.stringMatching(/^owners\.0\.phone is invalid/),
    });
    for (const path of ['address.postal_code', 'owners.1.address.postal_code']) {
      const cep = await api.post(URL, customer({ [path]: '00000000' }));
      expect(cep.status).toBe(400);
      expect(cep.body).toMatchObject({ error: 'invalid_request', field: path, message: expect.stringMatching(/CEP/) });
    }
  });

  it('422 sms_country_not_allowed for SMS to an owner at a number abroad, registering nothing; by e-mail only it registers', async () => {
    const { api } = await newPartner();
    const abroad = customer({ 'owners.1.phone': '+447400123456' });
    const refused = await api.post(URL, abroad);
    expect({ status: refused.status, body: refused.body }).toMatchObject({
      status: 422,
      body: {
        error: 'sms_country_not_allowed',
        field: 'owners.1.phone',
        message: expect.stringMatching(/^owners\.1\.phone is a number of GB: /),
      },
    });
    expect((await api.get(`${URL}?cnpj=${abroad.cnpj as string}`)).body).toMatchObject({ customers: [] });
    const emailOnly = await api.post(URL, { ...abroad, config: { auto_send_owner_sms: false, auto_send_owner_email: true } });
    expect(emailOnly.status).toBe(201);
  });

  describe('documented errors and malformed input, in the {error, message} body shape', () => {
    let api: ApiClient;
    beforeAll(async () => {
      ({ api } = await newPartner());
    });

    const expectError = async (body: unknown, error: string, field: string, message?: RegExp) => {
      const res = await api.post(URL, body);
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 400,
        body: { error, field, message: message ? expect.stringMatching(message) : expect.any(String) },
      });
    };

    it.each([
      ['numeric, wrong check digit', '11222333000182'],
      ['alphanumeric, wrong check digit', '12ABC34501DE36'],
      ['all the same digit', '11111111111111'],
      ['repeated root with valid check digits', '11111111111180'],
      ['formatted', '11.222.333/0001-81'],
      ['13 characters', '1122233300018'],
    ])('400 invalid_cnpj: %s', (_label, cnpj) => expectError(customer({ cnpj }), 'invalid_cnpj', 'cnpj', /^cnpj is invalid/));

    it.each([
      ['company phone, mobile missing its 9', 'phone', '+551187654321'],
      ['company phone, not E.164', 'phone', '(11) 3333-4444'],
      ['first owner phone', 'owners.0.phone', '+55 11 98765-4321'],
      ['second owner phone', 'owners.1.phone', '+5500987654321'],
    ])('400 invalid_phone: %s', (_label, path, phone) =>
      expectError(customer({ [path]: phone }), 'invalid_phone', path, /phone is invalid/),
    );

    it.each([
      ['wrong check digit', 'owners.0.document', '52998224724'],
      ['repeated digits', 'owners.1.document', '11111111111'],
      ['formatted', 'owners.0.document', '529.982.247-25'],
    ])('400 invalid_owner: %s', (_label, path, document) =>
      expectError(
        customer({ [path]: document }),
        'invalid_owner',
        path,
        /is invalid: the owner CPF must be 11 digits with valid check digits/,
      ),
    );

    it.each([
      ['state not a UF', 'address.state', 'XX'],
      ['owner state not a UF', 'owners.1.address.state', 'ZZ'],
      ['CEP of 7 digits', 'address.postal_code', '0131020'],
      ['formatted CEP', 'owners.0.address.postal_code', '01304-000'],
      ['company e-mail', 'email', 'finance@'],
      ['owner e-mail', 'owners.1.email', 'joao.acme.com.br'],
      ['birth_date in the future', 'owners.0.birth_date', '2999-01-01'],
      ['birth_date that does not exist', 'owners.0.birth_date', '2023-02-30'],
      ['nationality not ISO 3166-1 alpha-2', 'owners.0.nationality_country_code', 'BRA'],
      ['tax residence unknown country', 'owners.1.tax_residence_country_code', 'XX'],
      ['owner_type', 'owners.0.owner_type', 'founder'],
      ['ownership_type', 'owners.0.ownership.ownership_type', 'both'],
      ['ownership_bps 0', 'owners.0.ownership.ownership_bps', 0],
      ['ownership_bps 10001', 'owners.0.ownership.ownership_bps', 10_001],
      ['legal_name blank', 'legal_name', '  '],
      ['config flag not a boolean', 'config.auto_send_owner_email', 'yes'],
      ['metadata not an object', 'metadata', 'crm-1'],
    ])('400 invalid_request naming the field: %s', (_label, path, value) =>
      expectError(customer({ [path]: value }), 'invalid_request', path),
    );

    it('400 invalid_request on owners: shares over 10000 bps in all, no owners, missing owners', async () => {
      await expectError(customer({ 'owners.1.ownership.ownership_bps': 4_001 }), 'invalid_request', 'owners', /add up to at most 10000/);
      await expectError(customer({ owners: [] }), 'invalid_request', 'owners');
      await expectError(customer({ owners: undefined }), 'invalid_request', 'owners');
    });

    it('400 invalid_request for unknown fields, except inside metadata', async () => {
      await expectError(customer({ website: 'acme.com.br' }), 'invalid_request', 'website', /unknown field/);
      await expectError(customer({ 'owners.0.nickname': 'Mari' }), 'invalid_request', 'owners.0.nickname', /unknown field/);
      expect((await api.post(URL, customer({ metadata: { external_id: 'x', anything: { goes: [1, 2] } } }))).status).toBe(201);
    });

    it('reports the first wrong field in the documented field order: cnpj before phone before owners', async () => {
      await expectError(customer({ cnpj: '11222333000182', phone: '+5511', 'owners.0.document': '1' }), 'invalid_cnpj', 'cnpj');
      await expectError(customer({ phone: '+5511', 'owners.0.document': '1' }), 'invalid_phone', 'phone');
      await expectError(customer({ 'owners.0.document': '1', 'owners.0.phone': '+5511' }), 'invalid_owner', 'owners.0.document');
    });

    it('a refused registration registers nothing: the same CNPJ, corrected, is then accepted', async () => {
      const own = (await newPartner()).api;
      const body = customer({ 'owners.0.document': '52998224724' });
      const refused = await own.post(URL, body);
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_owner' });
      const id = await register(own, { ...body, owners: BUSINESS_CUSTOMER_EXAMPLE.owners });
      await eventOf(own, id);
      expect(customerEvents(await listEvents(own, 'limit=1000')).map((e) => [e.resource_id, e.data.cnpj])).toEqual([[id, body.cnpj]]);
    });
  });
});
