import { PartnerId, Topics } from '@partner/contracts';
import { OutboxMessage, UnitOfWork } from '@partner/db';
import { FakeAccountRepository } from '../accounts/fake-account-repository.spec-support';
import { hold } from './hold-rule';
import { CreateOutcome, createdWithdrawal, NewWithdrawal, Withdrawal, WithdrawalRepository } from './withdrawal.repository';

/**
 * The withdrawals table in memory, for unit specs: createHeld applies the hold rule (hold-rule.ts) to the
 * fake accounts, as CREATE_HELD applies its move under the accounts' no-overdraft constraint, claims the
 * idempotency key only when the hold happened (an aborted statement keeps nothing), and keeps the events
 * it was asked to write.
 */
export class FakeWithdrawalRepository implements Pick<
  WithdrawalRepository,
  'createHeld' | 'findByIdempotencyKey' | 'insertCreated' | 'refusedBefore'
> {
  private readonly rows: Withdrawal[] = [];
  readonly events: Array<OutboxMessage<typeof Topics.WithdrawalStateChanged>> = [];
  /** Command ids whose refusal the statement finds kept (refused_commands). */
  readonly refusedCommands = new Set<string>();

  constructor(private readonly accounts: FakeAccountRepository) {}

  async findByIdempotencyKey(partnerId: PartnerId, idempotencyKey: string): Promise<Withdrawal | null> {
    return this.rows.find((w) => w.partnerId === partnerId && w.idempotencyKey === idempotencyKey) ?? null;
  }

  async createHeld(
    _work: UnitOfWork,
    data: NewWithdrawal,
    now: Date,
    created: (w: Withdrawal) => OutboxMessage<typeof Topics.WithdrawalStateChanged>,
    commandId: string | null = null,
  ): Promise<CreateOutcome> {
    if (commandId !== null && this.refusedCommands.has(commandId)) return 'refused_before';
    if (await this.findByIdempotencyKey(data.partnerId, data.idempotencyKey)) return 'duplicate';
    const outcome = hold(await this.accounts.find(data.partnerId, data.document), data.amountMicros, data.feeMicros);
    if (typeof outcome === 'string') return outcome;
    this.accounts.seed(data.partnerId, data.document, outcome.held);
    const w = createdWithdrawal(data, this.rows.length + 1, now);
    this.rows.push(w);
    this.events.push(created(w));
    return { created: w };
  }

  /** The path of a user under limits runs on PostgreSQL only (limits.int.spec.ts). */
  insertCreated(): Promise<Withdrawal | null> {
    throw new Error('a user under limits: not in unit specs');
  }

  refusedBefore(): Promise<boolean> {
    throw new Error('a user under limits: not in unit specs');
  }
}
