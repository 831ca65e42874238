import { randomInt } from 'node:crypto';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { IsCnpj, isCnpj } from './cnpj.validators';
import { withCode } from './error-detail';
import { validateContract } from './validate-contract';

/**
 * Check digits computed the way the Receita Federal's manual describes them (manual-dv-cnpj), written
 * here independently of the library under test: each character is worth its ASCII code minus 48
 * (digits keep their value, A = 17 ... Z = 42), weights 5..2,9..2 then 6..2,9..2, mod 11.
 */
function checkDigits(base12: string): string {
  const digit = (chars: string, weights: number[]) => {
    const sum = weights.reduce((acc, w, i) => acc + (chars.charCodeAt(i) - 48) * w, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = digit(`${base12}${first}`, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${first}${second}`;
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const randomBase = (chars: string) => Array.from({ length: 12 }, () => chars[randomInt(chars.length)]).join('');

describe('isCnpj', () => {
  it.each([
    ['12ABC34501DE35', 'the Receita Federal published alphanumeric example'],
    ['11222333000181', 'numeric'],
    ['11444777000161', 'numeric'],
    ['00000000000191', 'numeric, leading zeros (Banco do Brasil)'],
    ['A1B2C3D4E5F668', 'alphanumeric'],
  ])('accepts %s (%s)', (cnpj) => {
    // The examples themselves are checked against the manual's algorithm, so a typo here cannot hide a bug.
    expect(checkDigits(cnpj.slice(0, 12))).toBe(cnpj.slice(12));
    expect(isCnpj(cnpj)).toBe(true);
  });

  it.each([
    ['12ABC34501DE36', 'alphanumeric, wrong second check digit'],
    ['12ABC34501DE25', 'alphanumeric, wrong first check digit'],
    ['11222333000182', 'numeric, wrong check digit'],
    ['00000000000000', 'all the same digit'],
    ['11111111111111', 'all the same digit'],
    ['11111111111180', 'repeated root and branch, correct check digits'],
    ['AAAAAAAAAAAA45', 'repeated letter, correct check digits'],
    ['12abc34501de35', 'lower case: the API takes the canonical upper-case form'],
    ['12.ABC.345/01DE-35', 'formatted: the API takes it unformatted'],
    ['11.222.333/0001-81', 'formatted numeric'],
    ['12ABC34501DEA5', 'letter in a check digit position'],
    ['1122233300018', '13 characters'],
    ['112223330001811', '15 characters'],
    ['12ABC34501DÉ35', 'non-ASCII letter'],
    ['', 'empty'],
  ])('refuses %s (%s)', (cnpj) => expect(isCnpj(cnpj)).toBe(false));

  it.each([[11222333000181], [null], [undefined], [{}]])('refuses the non-string %p', (value) => expect(isCnpj(value)).toBe(false));

  it('accepts exactly the check digits of the manual for random numeric and alphanumeric roots', () => {
    for (let i = 0; i < 200; i++) {
      const base = randomBase(i % 2 === 0 ? ALPHANUMERIC : '0123456789');
      if (/^(.)\1{11}$/.test(base)) continue;
      const right = checkDigits(base);
      expect(isCnpj(`${base}${right}`)).toBe(true);
      const wrong = String((Number(right) + 1 + randomInt(98)) % 100).padStart(2, '0');
      expect(isCnpj(`${base}${wrong}`)).toBe(false);
    }
  });
});

describe('@IsCnpj', () => {
  class Inner {
    @IsCnpj(withCode('invalid_cnpj')) cnpj!: string;
  }
  class Outer {
    @ValidateNested() @Type(() => Inner) company!: Inner;
  }

  it('reports its code with the full path and a message saying the CNPJ is invalid', () => {
    expect(validateContract(Outer, { company: { cnpj: '11222333000182' } })).toEqual({
      ok: false,
      error: {
        code: 'invalid_cnpj',
        field: 'company.cnpj',
        message: expect.stringMatching(/^company\.cnpj is invalid: a CNPJ is 14 characters/),
      },
    });
    expect(validateContract(Outer, { company: { cnpj: '12ABC34501DE35' } }).ok).toBe(true);
  });
});
