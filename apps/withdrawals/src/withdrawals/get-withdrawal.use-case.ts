import { Injectable } from '@nestjs/common';
import { fail, GetWithdrawalQuery, GetWithdrawalResult, ok, RequestReply, Topics } from '@partner/contracts';
import { toSnapshot } from './withdrawal-event';
import { Withdrawal, WithdrawalRepository } from './withdrawal.repository';

/**
 * The withdrawal as GET /partner/v1/withdrawals/usdt/{id} answers it: the event's snapshot (same
 * conversions of micros and times) without the idempotency key, its fee named like the amount.
 */
export function toView(w: Withdrawal): GetWithdrawalResult {
  const {
    idempotency_key: _key,
    fee_micros,
    state,
    tx_hash,
    block_number,
    failure_reason,
    created_at,
    last_updated_at,
    ...head
  } = toSnapshot(w);
  return { ...head, fee_usdtmicros: fee_micros, state, tx_hash, block_number, failure_reason, created_at, last_updated_at };
}

/** Reads one of the partner's withdrawals; another partner's is not_found, exactly like a missing one. */
@Injectable()
export class GetWithdrawalUseCase {
  constructor(private readonly withdrawals: WithdrawalRepository) {}

  async execute(query: GetWithdrawalQuery): Promise<RequestReply<typeof Topics.WithdrawalsGet>> {
    const withdrawal = await this.withdrawals.findById(query.partner_id, query.id);
    return withdrawal ? ok(toView(withdrawal)) : fail('not_found', `no withdrawal ${query.id}`);
  }
}
