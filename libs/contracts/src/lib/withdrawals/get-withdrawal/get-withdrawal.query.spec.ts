import { validateContract } from '@partner/validation';
import { GetWithdrawalQuery, WithdrawalIdParams } from './get-withdrawal.query';

describe('WithdrawalIdParams', () => {
  it('turns the canonical decimal path segment into the id', () => {
    for (const [segment, id] of [
      ['1', 1],
      ['42', 42],
      ['2147483648', 2_147_483_648],
      ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ] as const) {
      expect(validateContract(WithdrawalIdParams, { id: segment })).toEqual({ ok: true, value: { id } });
    }
  });

  it.each(['0', '-1', '+1', '01', '1.5', '1e3', '0x1f', ' 1', 'abc', '', '9007199254740993', '99999999999999999999'])(
    'refuses %p as 400 invalid_request naming id',
    (segment) => {
      expect(validateContract(WithdrawalIdParams, { id: segment })).toEqual({
        ok: false,
        error: { code: 'invalid_request', field: 'id', message: expect.stringMatching(/^id must be a positive integer/) },
      });
    },
  );

  it('validates the Kafka payload, where the id is already a number, with the same rule', () => {
    const partner_id = '0b7e4c1a-7f0e-4e36-9a55-3d1f7c2b8e90';
    expect(validateContract(GetWithdrawalQuery, { partner_id, id: 7 })).toEqual({ ok: true, value: { partner_id, id: 7 } });
    for (const id of [0, -3, 1.5, null])
      expect(validateContract(GetWithdrawalQuery, { partner_id, id })).toMatchObject({ ok: false, error: { field: 'id' } });
  });
});
