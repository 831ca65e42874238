import { Injectable } from '@nestjs/common';
import { AccountCreditedEvent, CreditAccountCommand, CreditAccountResult, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { outboxMessage, UnitOfWork } from '@partner/kafka';
import { AccountRepository, Balance, NewCredit } from './account.repository';

/** Thrown to roll back the key's claim when there is no account to credit. */
class UserNotFound extends Error {}

/** The balance would leave JSON's safe integers (the migration's accounts_balance_safe_integer CHECK). */
const isBalanceOverflow = (error: unknown): boolean =>
  (error as { code?: string; constraint?: string }).code === '23514' && (error as { constraint?: string }).constraint === 'accounts_balance_safe_integer';

const result = (balance: Balance, replayed: boolean): CreditAccountResult => ({
  available_usdt_micros: Number(balance.availableMicros),
  held_usdt_micros: Number(balance.heldMicros),
  replayed,
});

/** The outbox row announcing an applied credit (its contract keys it by account). */
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
 * Credits a user's USDT account, once per idempotency key of the partner: the credit, its ledger entry and
 * its account-credited event commit together (AccountRepository.credit). The same key again with the same
 * document, amount and reference is a replay, answered with the current balance; with anything else it is
 * refused. An unknown user binds nothing: the key may be used again once the user exists.
 */
@Injectable()
export class CreditAccountUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(command: CreditAccountCommand): Promise<RequestReply<typeof Topics.WithdrawalsCreditAccount>> {
    const credit: NewCredit = {
      partnerId: command.partner_id,
      idempotencyKey: command.idempotency_key,
      document: command.document,
      micros: BigInt(command.usdt_micros),
      reference: command.reference,
    };
    const now = new Date();
    try {
      return await this.unitOfWork.run(async (tx): Promise<RequestReply<typeof Topics.WithdrawalsCreditAccount>> => {
        const outcome = await this.accounts.credit(tx, credit, now);
        if (outcome === 'user_not_found') throw new UserNotFound();
        if ('applied' in outcome) {
          tx.emit(accountCredited(credit, outcome.applied, now));
          return ok(result(outcome.applied, false));
        }
        const { earlier } = outcome;
        if (earlier.document !== credit.document || earlier.micros !== credit.micros || earlier.reference !== credit.reference) {
          return fail('idempotency_key_reused', 'idempotency_key was already used with a different credit', 'idempotency_key');
        }
        return ok(result(outcome.balance, true));
      });
    } catch (error) {
      if (error instanceof UserNotFound) return fail('user_not_found', `no user with document ${command.document}`);
      // What the caller sent, not a fault of ours: a 422, never a 500.
      if (isBalanceOverflow(error)) return fail('invalid_amount', `the credit would take the balance over ${Number.MAX_SAFE_INTEGER} micros`, 'usdt_micros');
      throw error;
    }
  }
}
