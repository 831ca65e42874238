import { Injectable } from '@nestjs/common';
import {
  BrlLedgerEntryView,
  DEFAULT_OPERATOR_PAGE,
  fail,
  GetBrlBalanceQuery,
  GetBrlLedgerQuery,
  ok,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { AccountRepository, BrlLedgerLine } from './account.repository';
import { decodeBrlLedgerCursor, encodeBrlLedgerCursor } from './brl-ledger-cursor';

/** inflows.query.get-balance.v1: the user's BRL balance; another partner's user is user_not_found, like a missing one. */
@Injectable()
export class GetBrlBalanceUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(query: GetBrlBalanceQuery): Promise<RequestReply<typeof Topics.InflowsGetBalance>> {
    const account = await this.accounts.find(query.partner_id, query.document);
    if (!account) return fail('user_not_found', `no user with document ${query.document}`);
    // Cents of credited inflows, each at most MAX_PIX_IN_CENTS: a safe integer for far more than any account will see.
    return ok({ available_brl_cents: Number(account.availableBrlCents), blocked_brl_cents: Number(account.blockedBrlCents) });
  }
}

const toView = (line: BrlLedgerLine): BrlLedgerEntryView => ({
  id: line.id,
  type: line.type,
  currency: 'BRL',
  available_delta_cents: Number(line.availableDeltaCents),
  available_after_cents: Number(line.availableAfterCents),
  blocked_delta_cents: Number(line.blockedDeltaCents),
  blocked_after_cents: Number(line.blockedAfterCents),
  med_case_id: line.medCaseId,
  end_to_end_id: line.endToEndId,
  refund_id: line.refundId,
  created_at: Math.floor(line.createdAt.getTime() / 1000),
});

/** inflows.query.brl-ledger.v1: a page of the user's BRL ledger, newest first (the operator's read). */
@Injectable()
export class GetBrlLedgerUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(query: GetBrlLedgerQuery): Promise<RequestReply<typeof Topics.InflowsLedger>> {
    const beforeId = query.cursor === undefined ? undefined : decodeBrlLedgerCursor(query.cursor);
    if (beforeId === null) return fail('invalid_request', 'cursor must be the next_cursor of a previous page', 'cursor');
    if (!(await this.accounts.find(query.partner_id, query.document)))
      return fail('user_not_found', `no user with document ${query.document}`);
    const limit = query.limit ?? DEFAULT_OPERATOR_PAGE;
    // One more than the page tells whether another page follows without a count query.
    const lines = await this.accounts.ledger(query.partner_id, query.document, { beforeId, take: limit + 1 });
    const page = lines.slice(0, limit);
    return ok({ entries: page.map(toView), next_cursor: lines.length > limit ? encodeBrlLedgerCursor(page[page.length - 1].id) : null });
  }
}
