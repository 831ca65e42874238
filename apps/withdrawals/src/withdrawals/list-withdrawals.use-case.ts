import { Injectable } from '@nestjs/common';
import { CURSOR_REFUSED, fail, listScope, ListWithdrawalsQuery, ok, pageOf, pageRequestOf, RequestReply, Topics } from '@partner/contracts';
import { toView } from './get-withdrawal.use-case';
import { WaitingReasons } from './waiting-reasons.service';
import { WithdrawalRepository } from './withdrawal.repository';

const dateOf = (value: string | undefined): Date | undefined => (value === undefined ? undefined : new Date(value));

/**
 * GET /partner/v1/withdrawals/usdt: the partner's withdrawals, newest first, each as GET .../{id} answers
 * it; filtered by user, state and a creation interval [created_from, created_to). The cursor is bound to
 * the partner and the filters (listScope): one issued for another listing is refused.
 */
@Injectable()
export class ListWithdrawalsUseCase {
  constructor(
    private readonly withdrawals: WithdrawalRepository,
    private readonly waiting: WaitingReasons,
  ) {}

  async execute(query: ListWithdrawalsQuery): Promise<RequestReply<typeof Topics.WithdrawalsList>> {
    const createdFrom = dateOf(query.created_from);
    const createdTo = dateOf(query.created_to);
    const scope = listScope('withdrawals', query.partner_id, [query.document, query.state, createdFrom?.getTime(), createdTo?.getTime()]);
    const page = pageRequestOf(query, scope, 'integer');
    if (!page) return fail('invalid_request', CURSOR_REFUSED, 'cursor');
    const rows = await this.withdrawals.list(
      query.partner_id,
      { equals: { document: query.document, state: query.state }, createdFrom, createdTo },
      page,
    );
    const reasons = new Map((await this.waiting.of(rows)).map((reason, i) => [rows[i], reason]));
    const { items, next_cursor } = pageOf(
      rows,
      page,
      scope,
      (w) => ({ atMs: w.createdAt.getTime(), id: String(w.id) }),
      (w) => toView(w, reasons.get(w) ?? null),
    );
    return ok({ withdrawals: items, next_cursor });
  }
}
