import { newCpf, testPartnerId } from '@partner/testing';
import { AccountRepository, Balance } from './account.repository';
import { GetBalanceUseCase } from './get-balance.use-case';

// Unit: the reply built from the repository's answer, which is faked here (the SQL is proven in accounts.int.spec.ts).
function setUp(balance: Balance | null) {
  const calls: unknown[][] = [];
  const accounts = {
    find: async (...args: unknown[]) => {
      calls.push(args);
      return balance;
    },
  } as unknown as AccountRepository;
  return { useCase: new GetBalanceUseCase(accounts), calls };
}

describe('GetBalanceUseCase', () => {
  it('answers the partner’s user’s balance as integer micros', async () => {
    const query = { partner_id: testPartnerId(), document: newCpf() };
    const { useCase, calls } = setUp({ availableMicros: 9_007_199_254_740_000n, heldMicros: 1_020_000n });
    expect(await useCase.execute(query)).toEqual({ ok: true, data: { available_usdt_micros: 9_007_199_254_740_000, held_usdt_micros: 1_020_000 } });
    expect(calls).toEqual([[query.partner_id, query.document]]);
  });

  it('is user_not_found when the partner has no such user', async () => {
    const { useCase } = setUp(null);
    expect(await useCase.execute({ partner_id: testPartnerId(), document: newCpf() })).toEqual({ ok: false, error: { code: 'user_not_found', message: expect.any(String) } });
  });
});
