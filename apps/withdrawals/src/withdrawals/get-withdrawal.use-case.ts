import { Injectable } from '@nestjs/common';
import { fail, GetWithdrawalQuery, GetWithdrawalResult, ok, RequestReply, Topics, WithdrawalWaitingReason } from '@partner/contracts';
import { WaitingReasons } from './waiting-reasons.service';
import { toSnapshot } from './withdrawal-event';
import { Withdrawal, WithdrawalRepository } from './withdrawal.repository';

/**
 * The withdrawal as GET /partner/v1/withdrawals/usdt/{id} answers it: the event's snapshot (same
 * conversions of micros and times) without the idempotency key, its fee named like the amount, and why it
 * waits (not in events: a wait is no change of state).
 */
export function toView(w: Withdrawal, waiting_reason: WithdrawalWaitingReason | null): GetWithdrawalResult {
  const {
    idempotency_key: _key,
    fee_micros,
    beneficiary = null,
    state,
    tx_hash,
    block_number,
    failure_reason,
    report_id = null,
    created_at,
    last_updated_at,
    ...head
  } = toSnapshot(w);
  return {
    ...head,
    fee_usdtmicros: fee_micros,
    beneficiary,
    state,
    tx_hash,
    block_number,
    failure_reason,
    report_id,
    waiting_reason,
    created_at,
    last_updated_at,
  };
}

/** Reads one of the partner's withdrawals; another partner's is not_found, exactly like a missing one. */
@Injectable()
export class GetWithdrawalUseCase {
  constructor(
    private readonly withdrawals: WithdrawalRepository,
    private readonly waiting: WaitingReasons,
  ) {}

  async execute(query: GetWithdrawalQuery): Promise<RequestReply<typeof Topics.WithdrawalsGet>> {
    const withdrawal = await this.withdrawals.findById(query.partner_id, query.id);
    if (!withdrawal) return fail('not_found', `no withdrawal ${query.id}`);
    const [reason] = await this.waiting.of([withdrawal]);
    return ok(toView(withdrawal, reason));
  }
}
