import { validateContract } from '@partner/validation';
import { CreateBusinessCustomerCommand } from './create-business-customer.command';
import { BUSINESS_CUSTOMER_EXAMPLE, CreateBusinessCustomerRequest, CustomerOwner, MAX_OWNERS } from './create-business-customer.request';

type Body = Record<string, unknown>;

/** The example body with the value at `path` (dots; array indexes as numbers) replaced, or removed when `undefined`. */
function changed(path: string, value: unknown, base: object = BUSINESS_CUSTOMER_EXAMPLE): Body {
  const body = structuredClone(base) as Body;
  const keys = path.split('.');
  const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, body);
  const last = keys[keys.length - 1];
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return body;
}

const check = (body: unknown) => validateContract(CreateBusinessCustomerRequest, body);
const expectValid = (body: unknown) => expect(check(body)).toMatchObject({ ok: true });
const expectError = (body: unknown, code: string, field: string) =>
  expect(check(body)).toMatchObject({ ok: false, error: { code, field, message: expect.any(String) } });

const owner = (bps: number, document = '52998224725') =>
  changed('document', document, changed('ownership.ownership_bps', bps, BUSINESS_CUSTOMER_EXAMPLE.owners[0]));

describe('CreateBusinessCustomerRequest (docs/api.md: "Business customers")', () => {
  it('accepts the full example and returns nested instances', () => {
    const result = check(BUSINESS_CUSTOMER_EXAMPLE);
    expect(result.ok).toBe(true);
    const value = result.ok ? result.value : undefined;
    expect(value?.owners[1]).toBeInstanceOf(CustomerOwner);
    expect(value?.metadata).toEqual({ external_id: 'acme-001' });
  });

  it('accepts the minimum: no trade_name, complement, social_name, metadata or config', () => {
    let body = changed('trade_name', undefined);
    body = changed('address.complement', undefined, body);
    body = changed('metadata', undefined, body);
    body = changed('config', undefined, body);
    body = changed('owners', [changed('social_name', undefined, BUSINESS_CUSTOMER_EXAMPLE.owners[0])], body);
    expectValid(body);
  });

  describe('cnpj: 400 invalid_cnpj', () => {
    it.each(['11222333000181', '12ABC34501DE35'])('accepts the numeric and the alphanumeric CNPJ %s', (cnpj) =>
      expectValid(changed('cnpj', cnpj)),
    );
    it.each([
      ['numeric, wrong check digit', '11222333000182'],
      ['alphanumeric, wrong check digit', '12ABC34501DE36'],
      ['all the same digit', '11111111111111'],
      ['formatted', '11.222.333/0001-81'],
      ['lower case', '12abc34501de35'],
      ['missing', undefined],
      ['not a string', 11222333000181],
    ])('refuses %s', (_label, cnpj) => expectError(changed('cnpj', cnpj), 'invalid_cnpj', 'cnpj'));

    it('says the CNPJ is invalid', () =>
      expect(check(changed('cnpj', '11222333000182'))).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/^cnpj is invalid/) },
      }));
  });

  describe('phone: 400 invalid_phone, for the company and each owner', () => {
    it.each([
      ['company', 'phone', 'phone'],
      ['first owner', 'owners.0.phone', 'owners.0.phone'],
      ['second owner', 'owners.1.phone', 'owners.1.phone'],
    ])('%s', (_label, path, field) => {
      for (const phone of ['+551187654321', '11987654321', '+55 11 98765-4321', '+55011987654321', '', 5511987654321, undefined]) {
        expectError(changed(path, phone), 'invalid_phone', field);
      }
      expectValid(changed(path, '+14155552671'));
    });

    it('says the phone is invalid', () =>
      expect(check(changed('owners.1.phone', '+55'))).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/^owners\.1\.phone is invalid/) },
      }));
  });

  describe('owner document: 400 invalid_owner', () => {
    it.each([
      ['wrong check digit', '52998224724'],
      ['repeated digits', '11111111111'],
      ['formatted', '529.982.247-25'],
      ['missing', undefined],
    ])('refuses %s', (_label, document) => expectError(changed('owners.1.document', document), 'invalid_owner', 'owners.1.document'));

    it('says the owner CPF is invalid', () =>
      expect(check(changed('owners.0.document', '52998224724'))).toMatchObject({
        ok: false,
        error: { message: 'owners.0.document is invalid: the owner CPF must be 11 digits with valid check digits' },
      }));
  });

  describe('everything else: 400 invalid_request naming the field', () => {
    it.each([
      ['legal_name', ''],
      ['legal_name', '   '],
      ['legal_name', undefined],
      ['legal_name', 'x'.repeat(201)],
      ['trade_name', ''],
      ['trade_name', 7],
      ['email', 'finance'],
      ['email', 'finance@'],
      ['email', undefined],
      ['address', undefined],
      ['address', 'Avenida Paulista 1578'],
      ['address', []],
      ['address.street', ''],
      ['address.number', undefined],
      ['address.complement', ''],
      ['address.neighborhood', ' '],
      ['address.city', undefined],
      ['address.state', 'XX'],
      ['address.state', 'sp'],
      ['address.state', undefined],
      ['address.postal_code', '0131020'],
      ['address.postal_code', '01310-200'],
      ['address.postal_code', 1310200],
      ['address.postal_code', '00000000'],
      ['address.postal_code', '00999999'],
      ['owners.0.address.postal_code', '00000000'],
      ['owners.0.owner_type', 'founder'],
      ['owners.0.name', ''],
      ['owners.0.social_name', ''],
      ['owners.0.email', 'maria'],
      ['owners.0.birth_date', '2023-02-30'],
      ['owners.0.birth_date', '2999-01-01'],
      ['owners.0.birth_date', '1899-12-31'],
      ['owners.0.birth_date', '12/04/1985'],
      ['owners.0.nationality_country_code', 'BRA'],
      ['owners.0.nationality_country_code', 'XX'],
      ['owners.0.nationality_country_code', 'br'],
      ['owners.1.tax_residence_country_code', 'ZZ'],
      ['owners.1.address.state', 'XX'],
      ['owners.1.address.postal_code', '123'],
      ['owners.1.ownership', undefined],
      ['owners.1.ownership.ownership_type', 'both'],
      ['owners.0.ownership.ownership_bps', 0],
      ['owners.1.ownership.ownership_bps', -1],
      ['owners.1.ownership.ownership_bps', 10_001],
      ['owners.1.ownership.ownership_bps', 12.5],
      ['owners.1.ownership.ownership_bps', '4000'],
      ['metadata', 'acme-001'],
      ['metadata', ['acme-001']],
      ['metadata', { external_id: 42 }],
      ['metadata', { external_id: '' }],
      ['metadata', { external_id: 'x'.repeat(129) }],
      ['metadata', { external_id: 'a', notes: 'x'.repeat(4000), more: 'y'.repeat(100) }], // over 4096 bytes in all, each string within the text bound
      ['config', 'sms'],
      ['config.auto_send_owner_sms', 'true'],
      ['config.auto_send_owner_email', 1],
    ])('%s = %p', (path, value) => expectError(changed(path, value), 'invalid_request', path));

    it('accepts each optional field as given and extra free-form keys in metadata', () => {
      expectValid(changed('metadata', { external_id: 'crm-9', tier: 'gold', tags: ['a', 'b'], nested: { n: 1, none: null } }));
      expectValid(changed('metadata', {}));
      expectValid(changed('config', {}));
      expectValid(changed('config', { auto_send_owner_email: true }));
      expectValid(changed('owners.0.birth_date', '1900-01-01'));
      expectValid(changed('owners.0.ownership.ownership_bps', 1, changed('owners.1.ownership.ownership_bps', 1)));
      for (const owner_type of ['partner', 'representative', 'other_partner']) expectValid(changed('owners.0.owner_type', owner_type));
      for (const state of ['AC', 'DF', 'TO']) expectValid(changed('address.state', state));
    });

    it('refuses unknown fields, except inside metadata', () => {
      expectError(changed('website', 'acme.com'), 'invalid_request', 'website');
      expectError(changed('owners.0.nickname', 'Mari'), 'invalid_request', 'owners.0.nickname');
      expectError(changed('address.country', 'BR'), 'invalid_request', 'address.country');
      expectError(changed('config.auto_send_owner_whatsapp', true), 'invalid_request', 'config.auto_send_owner_whatsapp');
    });
  });

  describe('owners', () => {
    it(`needs 1 to ${MAX_OWNERS} of them`, () => {
      expectError(changed('owners', []), 'invalid_request', 'owners');
      expectError(changed('owners', undefined), 'invalid_request', 'owners');
      expectError(changed('owners', BUSINESS_CUSTOMER_EXAMPLE.owners[0]), 'invalid_request', 'owners');
      expectError(
        changed(
          'owners',
          Array.from({ length: MAX_OWNERS + 1 }, () => owner(1)),
        ),
        'invalid_request',
        'owners',
      );
      expectValid(
        changed(
          'owners',
          Array.from({ length: MAX_OWNERS }, () => owner(500)),
        ),
      );
      expectError(changed('owners', [null]), 'invalid_request', 'owners.0');
    });

    it('shares add up to at most 10000 bps', () => {
      expectValid(changed('owners', [owner(10_000)]));
      expectValid(changed('owners', [owner(5_000), owner(5_000)]));
      expectValid(changed('owners', [owner(3_000), owner(2_000)])); // less than 100%: other holders are not listed
      expect(check(changed('owners', [owner(6_000), owner(4_001)]))).toEqual({
        ok: false,
        error: { code: 'invalid_request', field: 'owners', message: "owners' ownership_bps must add up to at most 10000 (100%)" },
      });
    });

    it('a representative may own 0 bps; a partner or other partner may not', () => {
      const representative = (bps: number) => changed('owner_type', 'representative', owner(bps, '11144477735'));
      expectValid(changed('owners', [owner(10_000), representative(0)]));
      expectValid(changed('owners', [representative(0)]));
      for (const owner_type of ['partner', 'other_partner']) {
        expect(check(changed('owners', [owner(10_000), changed('owner_type', owner_type, representative(0))]))).toEqual({
          ok: false,
          error: {
            code: 'invalid_request',
            field: 'owners.1.ownership.ownership_bps',
            message: 'owners.1.ownership.ownership_bps must be an integer from 1 to 10000 (only a representative may own 0)',
          },
        });
      }
      expectError(changed('owners', [owner(10_000), representative(-1)]), 'invalid_request', 'owners.1.ownership.ownership_bps');
    });

    it('counts what each owner owns: a representative holding a share adds it to the total', () => {
      const representative = (bps: number) => changed('owner_type', 'representative', owner(bps, '11144477735'));
      expectValid(changed('owners', [owner(9_000), representative(1_000)]));
      expectError(changed('owners', [owner(10_000), representative(1)]), 'invalid_request', 'owners');
    });

    it("reports an owner's own error before the sum", () => {
      expectError(changed('owners', [owner(6_000), owner(6_000, '52998224724')]), 'invalid_owner', 'owners.1.document');
    });
  });

  describe('error precedence: the first field in the documented order', () => {
    it('cnpj before phone, phone before owners, company before owner fields', () => {
      expectError(changed('phone', 'x', changed('cnpj', 'x')), 'invalid_cnpj', 'cnpj');
      expectError(changed('owners.0.document', 'x', changed('phone', 'x')), 'invalid_phone', 'phone');
      expectError(changed('owners.0.phone', 'x', changed('email', 'x')), 'invalid_request', 'email');
      expectError(changed('owners.0.phone', 'x', changed('address.state', 'XX')), 'invalid_request', 'address.state');
    });

    it('within an owner: document, then phone, then the rest; earlier owners first', () => {
      expectError(changed('owners.0.phone', 'x', changed('owners.0.document', 'x')), 'invalid_owner', 'owners.0.document');
      expectError(changed('owners.0.birth_date', 'x', changed('owners.0.phone', 'x')), 'invalid_phone', 'owners.0.phone');
      expectError(changed('owners.0.email', 'x', changed('owners.1.document', 'x')), 'invalid_request', 'owners.0.email');
    });
  });

  it('is validated again, with its partner, as the command of the customers service', () => {
    const command = { ...BUSINESS_CUSTOMER_EXAMPLE, partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' };
    expect(validateContract(CreateBusinessCustomerCommand, command).ok).toBe(true);
    expect(validateContract(CreateBusinessCustomerCommand, { ...command, partner_id: 'acme' })).toMatchObject({
      ok: false,
      error: { field: 'partner_id' },
    });
    expect(validateContract(CreateBusinessCustomerCommand, { ...command, cnpj: '1' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_cnpj' },
    });
  });
});
