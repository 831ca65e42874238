import { CreateWithdrawalCommand } from '@partner/contracts';
import { Refusal, RefusalMemory, UnitOfWork } from '@partner/db';
import { newCpf, newUuid, testPartnerId, withdrawalRequest } from '@partner/testing';
import { FakeAccountRepository } from '../accounts/fake-account-repository.spec-support';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { FakeWithdrawalRepository } from './fake-withdrawal-repository.spec-support';
import { fixedScreening } from '../screening/screening.spec-support';
import { NO_LIMITS } from '../limits/limits.repository';
import { DEFAULT_POLICY } from '../destinations/destinations.repository';

/** Refusals kept by command id, in memory: what refused_commands keeps. */
class FakeRefusals implements Pick<RefusedCommandRepository, 'memoryOf'> {
  readonly kept = new Map<string, Refusal>();
  memoryOf(_partnerId: string, commandId: string | undefined): RefusalMemory | undefined {
    if (!commandId) return undefined;
    return { recall: async () => this.kept.get(commandId) ?? null, keep: async (r) => void this.kept.set(commandId, r) };
  }
}

/** No limits set: the creation takes its one-statement path, the only one a fake repository has. */
const NO_LIMITS_SET = {
  effective: async () => NO_LIMITS,
  usage: async () => {
    throw new Error('no limits: never read');
  },
  lockPartner: async () => {
    throw new Error('no limits: never locked');
  },
};
const NO_ACCOUNT_LOCKS = {
  lock: async () => {
    throw new Error('no limits: never locked');
  },
  applyHold: async () => {
    throw new Error('no limits: the statement holds');
  },
};

const NO_APPROVALS = {
  request: async () => {
    throw new Error('no limits: no approval threshold');
  },
};

/** The default policy, nothing saved: nothing asked of the destination. */
const NO_POLICY = { forWithdrawal: async () => ({ policy: DEFAULT_POLICY, saved: null }) };

function setUp() {
  const accounts = new FakeAccountRepository();
  const withdrawals = new FakeWithdrawalRepository(accounts);
  const refusals = new FakeRefusals();
  // The unit of work is handed to the repository's statement only: the fake runs without one.
  const useCase = new CreateWithdrawalUseCase(
    {} as UnitOfWork,
    withdrawals,
    refusals,
    fixedScreening(),
    NO_LIMITS_SET,
    NO_ACCOUNT_LOCKS,
    NO_APPROVALS,
    NO_POLICY,
  );
  const partnerId = testPartnerId();
  const document = newCpf();
  const command = (overrides: Partial<CreateWithdrawalCommand> = {}): CreateWithdrawalCommand => ({
    partner_id: partnerId,
    ...withdrawalRequest(document, { network: 'MATIC', fee_choice: 'LOW', usdtmicros: 1_000_000 }),
    ...overrides,
  });
  return { accounts, withdrawals, refusals, useCase, partnerId, document, command };
}

describe('CreateWithdrawalUseCase (unit: the hold rule through the use case)', () => {
  it('holds amount + fee from the balance and reports created', async () => {
    const { accounts, withdrawals, useCase, partnerId, document, command } = setUp();
    accounts.seed(partnerId, document, { availableMicros: 1_020_000n });
    expect(await useCase.execute(command())).toEqual({ ok: true, data: { id: 1, created: true } });
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 0n, heldMicros: 1_020_000n });
    expect(withdrawals.events.map((e) => e.payload.state)).toEqual(['created']);
  });

  it('refuses insufficient_funds one micro short, holding nothing and binding no key', async () => {
    const { accounts, useCase, partnerId, document, command } = setUp();
    accounts.seed(partnerId, document, { availableMicros: 1_019_999n });
    const first = command();
    expect(await useCase.execute(first)).toMatchObject({ ok: false, error: { code: 'insufficient_funds' } });
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 1_019_999n, heldMicros: 0n });
    // The key stays free: the same key succeeds once the balance covers it.
    accounts.seed(partnerId, document, { availableMicros: 1_020_000n });
    expect(await useCase.execute(first)).toEqual({ ok: true, data: { id: 1, created: true } });
  });

  it('refuses user_not_found for a document without an account', async () => {
    const { useCase, command } = setUp();
    expect(await useCase.execute(command())).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
  });

  it('replays the same request under its key, and refuses the key with another request', async () => {
    const { accounts, useCase, partnerId, document, command } = setUp();
    accounts.seed(partnerId, document, { availableMicros: 10_000_000n });
    const first = command();
    await useCase.execute(first);
    expect(await useCase.execute({ ...first })).toEqual({ ok: true, data: { id: 1, created: false } });
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 8_980_000n, heldMicros: 1_020_000n });
    expect(await useCase.execute({ ...first, usdtmicros: 2_000_000 })).toMatchObject({
      ok: false,
      error: { code: 'idempotency_key_reused' },
    });
  });

  it('answers a refused command delivered again with its first refusal, even after a credit', async () => {
    const { accounts, withdrawals, useCase, partnerId, document, command } = setUp();
    accounts.seed(partnerId, document, { availableMicros: 0n });
    const refused = command({ idempotency_key: newUuid() });
    const commandId = 'command-1';
    expect(await useCase.execute(refused, commandId)).toMatchObject({ ok: false, error: { code: 'insufficient_funds' } });
    withdrawals.refusedCommands.add(commandId); // kept by the statement's own check, as refused_commands holds it
    accounts.seed(partnerId, document, { availableMicros: 50_000_000n });
    expect(await useCase.execute({ ...refused }, commandId)).toMatchObject({ ok: false, error: { code: 'insufficient_funds' } });
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 50_000_000n, heldMicros: 0n });
  });
});
