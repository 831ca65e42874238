import { CreditAccountCommand, Topics } from '@partner/contracts';
import { newCpf, testPartnerId } from '@partner/testing';
import { OutboxMessage, Transaction, UnitOfWork } from '@partner/db';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { CreditAccountUseCase } from './credit-account.use-case';
import { FakeAccountRepository } from './fake-account-repository.spec-support';

// Unit: the use case's decisions over each outcome of the repository, which is in memory here (the SQL and
// its concurrency are proven against PostgreSQL in accounts.int.spec.ts).

/** A unit of work that records the events emitted and whether the work committed or rolled back. */
function fakeUnitOfWork() {
  const state = { emitted: [] as OutboxMessage[], committed: 0, rolledBack: 0 };
  const unitOfWork: Pick<UnitOfWork, 'run'> = {
    async run<R>(work: (tx: Transaction) => Promise<R>): Promise<R> {
      const pending: OutboxMessage[] = [];
      const tx: Transaction = { query: () => Promise.reject(new Error('no SQL in a unit test')), emit: (m) => void pending.push(m) };
      try {
        const result = await work(tx);
        state.emitted.push(...pending);
        state.committed++;
        return result;
      } catch (error) {
        state.rolledBack++;
        throw error;
      }
    },
  };
  return { unitOfWork, state };
}

function setUp() {
  const accounts = new FakeAccountRepository();
  const { unitOfWork, state } = fakeUnitOfWork();
  // Commands called in process have no command id: there is no refusal to remember.
  const refusals: Pick<RefusedCommandRepository, 'memoryOf'> = { memoryOf: () => undefined };
  return { useCase: new CreditAccountUseCase(unitOfWork, accounts, refusals), state, accounts };
}

const command = (): CreditAccountCommand => ({
  partner_id: testPartnerId(),
  document: newCpf(),
  usdt_micros: 2_500_000,
  idempotency_key: 'deposit-7f3a9c',
  reference: 'TED #4411',
});

describe('CreditAccountUseCase', () => {
  it('answers the balance after an applied credit and emits its account-credited event in the same unit of work', async () => {
    const c = command();
    const { useCase, state, accounts } = setUp();
    accounts.seed(c.partner_id, c.document, { availableMicros: 5_000_000n, heldMicros: 1_000_000n });
    expect(await useCase.execute(c)).toEqual({
      ok: true,
      data: { available_usdt_micros: 7_500_000, held_usdt_micros: 1_000_000, replayed: false },
    });
    // The partner's key now holds this credit.
    expect(accounts.creditOf(c.partner_id, c.idempotency_key)).toEqual({
      document: c.document,
      micros: 2_500_000n,
      reference: c.reference,
    });
    expect(state).toMatchObject({ committed: 1, rolledBack: 0 });
    expect(state.emitted).toEqual([
      {
        topic: Topics.AccountCredited,
        key: `account:${c.partner_id}:${c.document}`,
        payload: {
          partner_id: c.partner_id,
          document: c.document,
          usdt_micros: 2_500_000,
          idempotency_key: c.idempotency_key,
          reference: c.reference,
          available_usdt_micros: 7_500_000,
          credited_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      },
    ]);
  });

  it('refuses an unknown user and rolls the key claim back', async () => {
    const { useCase, state } = setUp();
    expect(await useCase.execute(command())).toEqual({ ok: false, error: { code: 'user_not_found', message: expect.any(String) } });
    expect(state).toEqual({ emitted: [], committed: 0, rolledBack: 1 });
  });

  it('answers a replay of the same credit with the current balance, emitting nothing', async () => {
    const c = command();
    const { useCase, state, accounts } = setUp();
    accounts.seed(c.partner_id, c.document, { availableMicros: 9_000_000n });
    accounts.seedCredit(c.partner_id, c.idempotency_key, { document: c.document, micros: 2_500_000n, reference: c.reference });
    expect(await useCase.execute(c)).toEqual({ ok: true, data: { available_usdt_micros: 9_000_000, held_usdt_micros: 0, replayed: true } });
    expect(state.emitted).toEqual([]);
  });

  it.each([
    ['document', { document: newCpf() }],
    ['amount', { micros: 2_500_001n }],
    ['reference', { reference: 'TED #4412' }],
  ])('refuses the key reused with another %s, emitting nothing', async (_field, change) => {
    const c = command();
    const { useCase, state, accounts } = setUp();
    const earlier = { document: c.document, micros: 2_500_000n, reference: c.reference, ...change };
    accounts.seed(c.partner_id, earlier.document, { availableMicros: 9_000_000n });
    accounts.seedCredit(c.partner_id, c.idempotency_key, earlier);
    expect(await useCase.execute(c)).toEqual({
      ok: false,
      error: { code: 'idempotency_key_reused', message: expect.any(String), field: 'idempotency_key' },
    });
    expect(state.emitted).toEqual([]);
  });

  it('lets a database failure propagate (the request fails; nothing is answered as done)', async () => {
    const { useCase, state, accounts } = setUp();
    accounts.failure = new Error('connection lost');
    await expect(useCase.execute(command())).rejects.toThrow('connection lost');
    expect(state.rolledBack).toBe(1);
  });
});
