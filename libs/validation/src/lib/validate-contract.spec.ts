import { IsIn, IsInt, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { withCode } from './error-detail';
import { validateCodedContract, validateContract } from './validate-contract';
import { IsCpf, isCpf } from './brazil.validators';
import { IsEvmAddress, isEvmAddress } from './evm.validators';

class Inner {
  @IsString() street!: string;
}

class Sample {
  @IsCpf() document!: string;
  @IsInt(withCode('invalid_amount')) amount!: number;
  @IsIn(['A', 'B'], withCode('invalid_fee')) fee!: string;
  @IsEvmAddress(withCode('invalid_address')) address!: string;
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

const valid = {
  document: '52998224725',
  amount: 5,
  fee: 'A',
  address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  inner: { street: 'x' },
};

describe('validateContract', () => {
  it('accepts a valid object and returns an instance of the class', () => {
    const result = validateContract(Sample, valid);
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toBeInstanceOf(Sample);
  });

  it('carries the code attached to the failing constraint', () => {
    expect(validateContract(Sample, { ...valid, fee: 'C' })).toMatchObject({ ok: false, error: { code: 'invalid_fee', field: 'fee' } });
    expect(validateContract(Sample, { ...valid, amount: '5' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_amount', field: 'amount' },
    });
  });

  it('reports the first failing field in declaration order, whatever else is wrong', () => {
    const result = validateContract(Sample, { ...valid, fee: 'C', amount: 1.5 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_amount', field: 'amount' } });
  });

  it('refuses unknown fields instead of dropping them', () => {
    expect(validateContract(Sample, { ...valid, extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'extra', message: 'unknown field extra' },
    });
  });

  it("with unknownFields 'ignore' (events): strips unknown fields, nested ones included, and still validates the known ones", () => {
    const result = validateContract(Sample, { ...valid, extra: 1, inner: { street: 'x', added: true } }, { unknownFields: 'ignore' });
    expect(result.ok).toBe(true);
    expect(result.ok && { ...result.value, inner: { ...result.value.inner } }).toEqual(valid);
    expect(validateContract(Sample, { ...valid, extra: 1, fee: 'C' }, { unknownFields: 'ignore' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_fee' },
    });
  });

  it('names nested fields by their path', () => {
    expect(validateContract(Sample, { ...valid, inner: { street: 3 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'inner.street', message: expect.stringMatching(/^inner\.street/) },
    });
  });

  it.each([null, undefined, [], 'text', 42])('refuses a non-object body %p', (plain) => {
    expect(validateContract(Sample, plain)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});

describe('validateCodedContract', () => {
  const codes = ['invalid_amount', 'invalid_fee'] as const;

  it('carries a code of the list given, typed by it', () => {
    expect(validateCodedContract(Sample, { ...valid, fee: 'C' }, codes)).toMatchObject({
      ok: false,
      error: { code: 'invalid_fee', field: 'fee' },
    });
    expect(validateCodedContract(Sample, valid, codes)).toMatchObject({ ok: true });
  });

  it('answers invalid_request, never a code outside the list, for a constraint naming one (a class validated against the wrong list)', () => {
    expect(validateCodedContract(Sample, { ...valid, address: '0x1' }, codes)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'address' },
    });
  });
});

describe('Brazilian and EVM validators', () => {
  it.each([
    ['52998224725', true],
    ['529.982.247-25', false], // formatted: the API takes digits only
    ['52998224724', false], // wrong check digit
    ['11111111111', false], // repeated digits pass the checksum but are not CPFs
    ['5299822472', false],
  ])('isCpf(%s) is %s', (value, expected) => expect(isCpf(value)).toBe(expected));

  it.each([
    ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', true],
    ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045', true], // all lower case carries no checksum
    ['0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045', true], // all upper case carries no checksum
    ['0xd8dA6BF26964aF9D7eEd9e03E53415D37AA96045', false], // mixed case with a wrong checksum
    ['0x0000000000000000000000000000000000000000', false],
    ['d8dA6BF26964aF9D7eEd9e03E53415D37aA96045', false],
    ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA9604', false],
  ])('isEvmAddress(%s) is %s', (value, expected) => expect(isEvmAddress(value)).toBe(expected));
});
