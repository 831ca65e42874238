import { randomUUID } from 'node:crypto';
import { Topics, UsdtWithdrawalSnapshot, WithdrawalStateChangedEvent } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { Withdrawal } from './withdrawal.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The withdrawal as partners see it (docs/api.md: "USDT withdrawals"). Micros fit in a safe integer by the amount bounds. */
export function toSnapshot(w: Withdrawal): UsdtWithdrawalSnapshot {
  return {
    id: w.id,
    document: w.document,
    idempotency_key: w.idempotencyKey,
    address: w.address,
    network: w.network,
    fee_choice: w.feeChoice,
    usdtmicros: Number(w.amountMicros),
    fee_micros: Number(w.feeMicros),
    beneficiary: w.beneficiary,
    state: w.state,
    tx_hash: w.txHash,
    block_number: w.payout.blockNumber === null ? null : Number(w.payout.blockNumber),
    failure_reason: w.failureReason,
    report_id: w.reportId,
    created_at: unix(w.createdAt),
    last_updated_at: unix(w.updatedAt),
  };
}

/** The outbox row reporting that `w` reached its current state (its contract keys it by withdrawal). */
export function stateChanged(w: Withdrawal) {
  const event: WithdrawalStateChangedEvent = {
    event_id: randomUUID(),
    partner_id: w.partnerId,
    type: 'usdt_withdrawal',
    state: w.state,
    resource_id: String(w.id),
    occurred_at: w.updatedAt.toISOString(),
    resource: toSnapshot(w),
  };
  return outboxMessage(Topics.WithdrawalStateChanged, event);
}
