import { newCpf, testPartnerId } from '@partner/testing';
import { AccountRepository } from './account.repository';
import { OpenUserAccountUseCase } from './open-user-account.use-case';

// Unit: the reply built from the repository's answer, which is faked here (the SQL is proven in accounts.int.spec.ts).
function setUp(answer: { created: boolean; createdAt: Date }) {
  const calls: unknown[][] = [];
  const accounts = {
    open: async (...args: unknown[]) => {
      calls.push(args);
      return answer;
    },
  } as unknown as AccountRepository;
  return { useCase: new OpenUserAccountUseCase(accounts), calls };
}

describe('OpenUserAccountUseCase', () => {
  it('opens the account of the partner’s user and answers whether it is new and when it was opened, in ISO 8601', async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const { useCase, calls } = setUp({ created: true, createdAt: new Date('2026-11-22T10:00:00.123Z') });
    expect(await useCase.execute(command)).toEqual({ ok: true, data: { created: true, created_at: '2026-11-22T10:00:00.123Z' } });
    expect(calls).toEqual([[command.partner_id, command.document, expect.any(Date)]]);
  });

  it('answers created: false with the first opening time for a known user', async () => {
    const { useCase } = setUp({ created: false, createdAt: new Date('2026-01-02T03:04:05.006Z') });
    expect(await useCase.execute({ partner_id: testPartnerId(), document: newCpf() })).toEqual({ ok: true, data: { created: false, created_at: '2026-01-02T03:04:05.006Z' } });
  });
});
