import { Injectable } from '@nestjs/common';
import { DEFAULT_OPERATOR_PAGE, fail, GetLedgerQuery, LedgerEntryView, ok, RequestReply, Topics } from '@partner/contracts';
import { AccountRepository } from '../accounts/account.repository';
import { decodeLedgerCursor, encodeLedgerCursor } from './ledger-cursor';
import { LedgerLine, LedgerRepository } from './ledger.repository';

const toView = (line: LedgerLine): LedgerEntryView => ({
  id: line.id,
  type: line.type,
  available_delta_micros: Number(line.availableDelta),
  held_delta_micros: Number(line.heldDelta),
  available_after_micros: Number(line.availableAfter),
  held_after_micros: Number(line.heldAfter),
  withdrawal_id: line.withdrawalId,
  fee_micros: line.feeMicros === null ? null : Number(line.feeMicros),
  network: line.network,
  tx_hash: line.txHash,
  gas_cost_wei: line.gasCostWei,
  idempotency_key: line.idempotencyKey,
  reference: line.reference,
  operators: line.operators,
  created_at: Math.floor(line.createdAt.getTime() / 1000),
});

/** A page of a user's ledger, newest first; another partner's user is user_not_found, like a missing one. */
@Injectable()
export class GetLedgerUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  async execute(query: GetLedgerQuery): Promise<RequestReply<typeof Topics.WithdrawalsLedger>> {
    const beforeId = query.cursor === undefined ? undefined : decodeLedgerCursor(query.cursor);
    if (beforeId === null) return fail('invalid_request', 'cursor must be the next_cursor of a previous page', 'cursor');
    if (!(await this.accounts.find(query.partner_id, query.document)))
      return fail('user_not_found', `no user with document ${query.document}`);
    const limit = query.limit ?? DEFAULT_OPERATOR_PAGE;
    // One more than the page tells whether another page follows without a count query.
    const lines = await this.ledger.page(query.partner_id, query.document, { beforeId, take: limit + 1 });
    const page = lines.slice(0, limit);
    return ok({ entries: page.map(toView), next_cursor: lines.length > limit ? encodeLedgerCursor(page[page.length - 1].id) : null });
  }
}
