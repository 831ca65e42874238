import { Inject, Injectable } from '@nestjs/common';
import {
  AccountCreditedEvent,
  CreditAccountCommand,
  CreditAccountResult,
  fail,
  RequestErrorCode,
  requestRefusalsOf,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { onConstraintViolation, outboxMessage, Rejected, requestFingerprint, runIdempotent, UnitOfWork } from '@partner/db';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { AccountRepository, Balance, CreditOutcome, NewCredit } from './account.repository';

/** What makes a credit the same request again: everything but the key (credits store no fingerprint: it is recomputed). */
const fingerprintOf = (c: Pick<NewCredit, 'document' | 'micros' | 'reference'>): string =>
  requestFingerprint([c.document, c.micros.toString(), c.reference]);

const result = (balance: Balance, replayed: boolean): CreditAccountResult => ({
  available_usdt_micros: Number(balance.availableMicros),
  held_usdt_micros: Number(balance.heldMicros),
  replayed,
});

/** The outbox row announcing an applied credit; keyed by account so one account's credits stay in order. */
function accountCredited(credit: NewCredit, after: Balance, at: Date) {
  const event: AccountCreditedEvent = {
    partner_id: credit.partnerId,
    document: credit.document,
    usdt_micros: Number(credit.micros),
    idempotency_key: credit.idempotencyKey,
    reference: credit.reference,
    available_usdt_micros: Number(after.availableMicros),
    credited_at: at.toISOString(),
  };
  return outboxMessage(Topics.AccountCredited, event);
}

/**
 * Credits a user's USDT account, once per idempotency key of the partner: the credit, its ledger entry, its
 * audit row and its account-credited event commit together (AccountRepository.credit), or none of them. The same key again with the same
 * document, amount and reference is a replay, answered with the current balance; with anything else it is
 * refused. An unknown user binds nothing: the key may be used again once the user exists; a copy of the
 * refused command itself (same command id) is refused again, so a credit answered 404 is never applied later.
 */
@Injectable()
export class CreditAccountUseCase {
  constructor(
    @Inject(UnitOfWork) private readonly unitOfWork: Pick<UnitOfWork, 'run'>,
    @Inject(AccountRepository) private readonly accounts: Pick<AccountRepository, 'credit'>,
    @Inject(RefusedCommandRepository) private readonly refusedCommands: Pick<RefusedCommandRepository, 'memoryOf'>,
  ) {}

  /** `commandId`: the command's own id (commandIdOf), so that a copy of it delivered again after a refusal is refused again. */
  async execute(command: CreditAccountCommand, commandId?: string): Promise<RequestReply<typeof Topics.WithdrawalsCreditAccount>> {
    const credit: NewCredit = {
      partnerId: command.partner_id,
      idempotencyKey: command.idempotency_key,
      document: command.document,
      micros: BigInt(command.usdt_micros),
      reference: command.reference,
      operators: command.operators ?? null,
      clientAddress: command.client_address ?? null,
    };
    const now = new Date();
    const credited = runIdempotent<
      CreditAccountResult,
      Extract<CreditOutcome, { earlier: unknown }>,
      RequestErrorCode<typeof Topics.WithdrawalsCreditAccount>
    >({
      refusalCodes: requestRefusalsOf(Topics.WithdrawalsCreditAccount),
      idempotencyKey: credit.idempotencyKey,
      fingerprint: fingerprintOf(credit),
      attempt: () =>
        this.unitOfWork.run(async (tx) => {
          const outcome = await this.accounts.credit(tx, credit, now);
          // Thrown to roll back the key's claim: there is no account to credit.
          if (outcome === 'user_not_found') throw new Rejected('user_not_found', `no user with document ${command.document}`);
          if ('applied' in outcome) {
            tx.emit(accountCredited(credit, outcome.applied, now));
            return { done: result(outcome.applied, false) };
          }
          // The earlier credit and the balance now, read in this transaction.
          return { taken: outcome };
        }),
      fingerprintOf: ({ earlier }) => fingerprintOf(earlier),
      replay: ({ balance }) => result(balance, true),
      requestNoun: 'credit',
      refusals: this.refusedCommands.memoryOf(credit.partnerId, commandId, credit.idempotencyKey),
    });
    // The balance would leave JSON's safe integers (the migration's CHECK): what the caller sent, not a fault of ours, so a 422, never a 500.
    return onConstraintViolation(credited, {
      accounts_balance_safe_integer: () =>
        fail('invalid_amount', `the credit would take the balance over ${Number.MAX_SAFE_INTEGER} micros`, 'usdt_micros'),
    });
  }
}
