import { Injectable } from '@nestjs/common';
import { DEFAULT_OPERATOR_PAGE, fail, ListUsersQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { decodeUserCursor, encodeUserCursor } from '../ledger/ledger-cursor';
import { AccountRepository } from './account.repository';

/** A page of a partner's users (every registered user has an account here), by CPF, with their balances. */
@Injectable()
export class ListUsersUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(query: ListUsersQuery): Promise<RequestReply<typeof Topics.WithdrawalsListUsers>> {
    const afterDocument = query.cursor === undefined ? undefined : decodeUserCursor(query.cursor);
    if (afterDocument === null) return fail('invalid_request', 'cursor must be the next_cursor of a previous page', 'cursor');
    const limit = query.limit ?? DEFAULT_OPERATOR_PAGE;
    const rows = await this.accounts.page(query.partner_id, { afterDocument, take: limit + 1 });
    const page = rows.slice(0, limit);
    return ok({
      users: page.map((u) => ({
        document: u.document,
        created_at: Math.floor(u.createdAt.getTime() / 1000),
        available_usdt_micros: Number(u.availableMicros),
        held_usdt_micros: Number(u.heldMicros),
      })),
      next_cursor: rows.length > limit ? encodeUserCursor(page[page.length - 1].document) : null,
    });
  }
}
