import { Controller, Inject } from '@nestjs/common';
import { fail, ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { UserRepository } from './user.repository';

/**
 * A user made known by the operator's (or the sandbox's) registration: the document, and the holder's name
 * and payment account when the gateway has them (a user registered with its document alone stays valid;
 * registering it again with a name fills it in). Idempotent.
 */
@Controller()
export class UpsertUserHandler {
  constructor(@Inject(UserRepository) private readonly users: Pick<UserRepository, 'upsert'>) {}

  @HandleRequest(Topics.PixKeysUpsertUser)
  async handle(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.PixKeysUpsertUser>> {
    const { account } = command;
    const openedAt = account ? new Date(account.opened_at) : undefined;
    // The contract takes any string; DICT's OpeningDate is a date-time, so a bad one is refused here, never stored.
    if (openedAt && Number.isNaN(openedAt.getTime())) {
      return fail('invalid_request', 'account.opened_at must be an ISO 8601 date-time', 'account.opened_at');
    }
    const { created, createdAt } = await this.users.upsert(command.partner_id, command.document, {
      name: command.name,
      defaultName: command.default_name,
      account:
        account && openedAt
          ? { ispb: account.ispb, branch: account.branch, number: account.number, type: account.type, openedAt }
          : undefined,
    });
    return ok({ created, created_at: createdAt.toISOString() });
  }
}
