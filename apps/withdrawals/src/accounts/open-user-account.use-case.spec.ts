import { newCpf, testPartnerId } from '@partner/testing';
import { FakeAccountRepository } from './fake-account-repository.spec-support';
import { OpenUserAccountUseCase } from './open-user-account.use-case';

// Unit: the reply built from the repository's answer; the repository is in memory here (the SQL is proven in accounts.int.spec.ts).
function setUp() {
  const accounts = new FakeAccountRepository();
  return { useCase: new OpenUserAccountUseCase(accounts), accounts };
}

describe('OpenUserAccountUseCase', () => {
  it('opens the account of the partner’s user and answers whether it is new and when it was opened, in ISO 8601', async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const { useCase, accounts } = setUp();
    const reply = await useCase.execute(command);
    const openedAt = accounts.openedAt(command.partner_id, command.document);
    expect(openedAt).toEqual(expect.any(Date));
    expect(reply).toEqual({ ok: true, data: { created: true, created_at: openedAt?.toISOString() } });
    // Opened for that partner's user, with nothing in it.
    expect(await accounts.find(command.partner_id, command.document)).toEqual({ availableMicros: 0n, heldMicros: 0n });
  });

  it('answers created: false with the first opening time for a known user', async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const { useCase, accounts } = setUp();
    accounts.seed(command.partner_id, command.document, { createdAt: new Date('2026-01-02T03:04:05.006Z') });
    expect(await useCase.execute(command)).toEqual({ ok: true, data: { created: false, created_at: '2026-01-02T03:04:05.006Z' } });
  });
});
