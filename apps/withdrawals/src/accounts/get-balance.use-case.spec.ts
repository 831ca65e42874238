import { newCpf, testPartnerId } from '@partner/testing';
import { FakeAccountRepository } from './fake-account-repository.spec-support';
import { GetBalanceUseCase } from './get-balance.use-case';

// Unit: the reply built from the repository's answer; the repository is in memory here (the SQL is proven in accounts.int.spec.ts).
function setUp() {
  const accounts = new FakeAccountRepository();
  return { useCase: new GetBalanceUseCase(accounts), accounts };
}

describe('GetBalanceUseCase', () => {
  it('answers the partner’s user’s balance as integer micros', async () => {
    const query = { partner_id: testPartnerId(), document: newCpf() };
    const { useCase, accounts } = setUp();
    accounts.seed(query.partner_id, query.document, { availableMicros: 9_007_199_254_740_000n, heldMicros: 1_020_000n });
    // The same CPF under another partner is another user: never the one answered.
    accounts.seed(testPartnerId(), query.document, { availableMicros: 1n });
    expect(await useCase.execute(query)).toEqual({
      ok: true,
      data: { available_usdt_micros: 9_007_199_254_740_000, held_usdt_micros: 1_020_000 },
    });
  });

  it('is user_not_found when the partner has no such user', async () => {
    const { useCase, accounts } = setUp();
    const document = newCpf();
    accounts.seed(testPartnerId(), document);
    expect(await useCase.execute({ partner_id: testPartnerId(), document })).toEqual({
      ok: false,
      error: { code: 'user_not_found', message: expect.any(String) },
    });
  });
});
