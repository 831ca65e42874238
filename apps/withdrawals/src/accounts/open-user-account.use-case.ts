import { Inject, Injectable } from '@nestjs/common';
import { ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { AccountRepository } from './account.repository';

/** Makes a user of a partner known here: opens their USDT account with a zero balance unless it exists. Idempotent. */
@Injectable()
export class OpenUserAccountUseCase {
  constructor(@Inject(AccountRepository) private readonly accounts: Pick<AccountRepository, 'open'>) {}

  async execute(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.WithdrawalsUpsertUser>> {
    const { created, createdAt } = await this.accounts.open(command.partner_id, command.document, new Date());
    return ok({ created, created_at: createdAt.toISOString() });
  }
}
