import { Inject, Injectable } from '@nestjs/common';
import { fail, GetBalanceQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { AccountRepository } from './account.repository';

/** A user's balance as committed now; another partner's user is user_not_found, exactly like a missing one. */
@Injectable()
export class GetBalanceUseCase {
  constructor(@Inject(AccountRepository) private readonly accounts: Pick<AccountRepository, 'find'>) {}

  async execute(query: GetBalanceQuery): Promise<RequestReply<typeof Topics.WithdrawalsGetBalance>> {
    const balance = await this.accounts.find(query.partner_id, query.document);
    if (!balance) return fail('user_not_found', `no user with document ${query.document}`);
    return ok({ available_usdt_micros: Number(balance.availableMicros), held_usdt_micros: Number(balance.heldMicros) });
  }
}
