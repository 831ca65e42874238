import { generateCnpj, generateCpf } from '@brazilian-utils/brazilian-utils';
import { validateContract } from '@partner/validation';
import { isCpfOrCnpj } from './pix-in.validators';
import { ListPixInflowsRequest } from './list-pix-inflows/list-pix-inflows.query';
import { SandboxPixInRequest } from './simulate-pix-in/simulate-pix-in.command';

describe('isCpfOrCnpj (sender_tax_id)', () => {
  it.each([
    ['52998224725', true], // CPF
    ['11222333000181', true], // numeric CNPJ
    ['12ABC34501DE35', true], // alphanumeric CNPJ (IN RFB 2.229/2024)
    ['529.982.247-25', false], // masks are not taken
    ['11.222.333/0001-81', false],
    ['12abc34501de35', false], // the canonical form is upper case
    ['52998224724', false], // wrong check digit
    ['11222333000182', false],
    ['12ABC34501DE36', false],
    ['11111111111', false], // repeated digits pass the checksum but are reserved
    ['00000000000000', false],
    ['5299822472', false],
    ['529982247250', false],
    ['', false],
  ])('%p is %s', (value, expected) => expect(isCpfOrCnpj(value)).toBe(expected));

  it('accepts what the generators make', () => {
    for (let i = 0; i < 100; i++) {
      expect(isCpfOrCnpj(generateCpf())).toBe(true);
      expect(isCpfOrCnpj(generateCnpj())).toBe(true);
      expect(isCpfOrCnpj(generateCnpj(2))).toBe(true);
    }
  });

  it('refuses anything but a string', () => {
    expect(isCpfOrCnpj(52998224725)).toBe(false);
    expect(isCpfOrCnpj(null)).toBe(false);
  });
});

describe('SandboxPixInRequest', () => {
  const valid = { document: '52998224725', amount_cents: 15_000 };

  it('needs only document and amount_cents', () => {
    expect(validateContract(SandboxPixInRequest, valid)).toMatchObject({ ok: true });
  });

  it.each([
    [{ amount_cents: 0 }, 'amount_cents'],
    [{ amount_cents: 1.5 }, 'amount_cents'],
    [{ amount_cents: '100' }, 'amount_cents'],
    [{ amount_cents: 10_000_000_001 }, 'amount_cents'],
    [{ method: 'pix' }, 'method'],
    [{ description: '' }, 'description'],
    [{ description: 'x'.repeat(141) }, 'description'],
    [{ sender_name: '' }, 'sender_name'],
    [{ sender_tax_id: '52998224724' }, 'sender_tax_id'],
    [{ sender_account_number: '12-3' }, 'sender_account_number'],
    [{ sender_account_type: 'current' }, 'sender_account_type'],
    [{ sender_bank_code: '341' }, 'sender_bank_code'],
    [{ sender_branch_code: '12345' }, 'sender_branch_code'],
    [{ simulate_outcome: 'success' }, 'simulate_outcome'],
    [{ partner_id: 'x' }, 'partner_id'], // not part of the HTTP body: an unknown field
  ])('refuses %p naming %s', (override, field) => {
    expect(validateContract(SandboxPixInRequest, { ...valid, ...override })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field },
    });
  });

  it('reports the first bad field in body order', () => {
    expect(validateContract(SandboxPixInRequest, { ...valid, sender_bank_code: '1', sender_tax_id: '1' })).toMatchObject({
      ok: false,
      error: { field: 'sender_tax_id' },
    });
  });
});

describe('ListPixInflowsRequest', () => {
  it('takes limit as a query string and status from the 2.4 set', () => {
    expect(validateContract(ListPixInflowsRequest, { limit: '10', status: 'credited' })).toMatchObject({ ok: true, value: { limit: 10 } });
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '1001' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ status: 'done' }, 'status'],
    [{ cursor: 'not a cursor!' }, 'cursor'],
    [{ cursor: ['a', 'b'] }, 'cursor'],
    [{ page: '2' }, 'page'],
  ])('refuses %p naming %s', (query, field) => {
    expect(validateContract(ListPixInflowsRequest, query)).toMatchObject({ ok: false, error: { code: 'invalid_request', field } });
  });
});
