import { plainToInstance } from 'class-transformer';
import { CreateUsdtWithdrawalRequest } from '@partner/contracts';
import { ContractPipe } from './contract-body.pipe';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts objects and arrays as levels, scalars as none', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan({ a: 1, b: [1, { c: 2 }] }, 3)).toBe(false);
  });

  it('handles nesting far beyond what recursion survives', () => {
    expect(nestsDeeperThan(nested(200_000), MAX_JSON_DEPTH)).toBe(true);
  });
});

// Regression (found by tools/e2e/src/fuzz.spec.ts): a body of 3000 nested objects answered 500 because
// class-transformer recursed until the stack overflowed.
describe('ContractPipe on deeply nested input', () => {
  it('the validator alone overflows the stack on such input (why the pipe checks depth first)', () => {
    expect(() => plainToInstance(CreateUsdtWithdrawalRequest, { document: nested(20_000) })).toThrow(RangeError);
  });

  it('answers 400 invalid_request instead', () => {
    expect(() => new ContractPipe(CreateUsdtWithdrawalRequest).transform({ document: nested(20_000) })).toThrow(
      expect.objectContaining({ status: 400, detail: expect.objectContaining({ code: 'invalid_request' }) }),
    );
  });

  it('still validates normally nested bodies field by field', () => {
    expect(() => new ContractPipe(CreateUsdtWithdrawalRequest).transform({ document: nested(5) })).toThrow(
      expect.objectContaining({ status: 400, detail: expect.objectContaining({ field: 'document' }) }),
    );
  });
});
