import { IsE164Phone, isE164Phone, phoneCountryOf } from './phone.validators';
import { withCode } from './error-detail';
import { validateContract } from './validate-contract';

describe('isE164Phone', () => {
  it.each([
    ['+5511987654321', 'São Paulo mobile'],
    ['+551133334444', 'São Paulo landline'],
    ['+5561991234567', 'Brasília mobile'],
    ['+14155552671', 'United States'],
    ['+447911123456', 'United Kingdom mobile'],
  ])('accepts %s (%s)', (phone) => expect(isE164Phone(phone)).toBe(true));

  it.each([
    ['5511987654321', 'no plus'],
    ['+55 11 98765-4321', 'formatted: the API takes the canonical form'],
    ['+55(11)987654321', 'brackets'],
    ['+551187654321', 'Brazilian mobile missing its leading 9'],
    ['+5500987654321', 'area code 00 does not exist'],
    ['+55011987654321', 'trunk zero after the country code: E.164 is +5511987654321'],
    ['+4407911123456', 'trunk zero after the country code: E.164 is +447911123456'],
    ['+5511987654321 ext. 12', 'an extension'],
    ['+５５11987654321', 'full-width digits'],
    ['+55119876543210', 'one digit too many'],
    ['+5511', 'too short'],
    ['+0511987654321', 'country code 0'],
    ['+1234567890123456', 'over 15 digits'],
    ['', 'empty'],
  ])('refuses %s (%s)', (phone) => expect(isE164Phone(phone)).toBe(false));

  it.each([[5511987654321], [null], [undefined], [{}]])('refuses the non-string %p', (value) => expect(isE164Phone(value)).toBe(false));
});

describe('phoneCountryOf', () => {
  it.each([
    ['+5511987654321', 'BR'],
    ['+14155552671', 'US'],
    ['+447400123456', 'GB'],
    ['+351912345678', 'PT'],
  ])('%s is a number of %s', (phone, country) => expect(phoneCountryOf(phone)).toBe(country));

  it('is undefined for what is not a number', () => expect(phoneCountryOf('x')).toBeUndefined());
});

describe('@IsE164Phone', () => {
  class Sample {
    @IsE164Phone(withCode('invalid_phone')) phone!: string;
  }

  it('reports its code and a message saying the phone is invalid', () => {
    expect(validateContract(Sample, { phone: '+551187654321' })).toEqual({
      ok: false,
      error: { code: 'invalid_phone', field: 'phone', message: expect.stringMatching(/^phone is invalid: .*E\.164/) },
    });
    expect(validateContract(Sample, { phone: '+5511987654321' }).ok).toBe(true);
  });
});
