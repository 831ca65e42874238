import type { WithdrawalApproval } from '@partner/contracts';
import { unixSeconds } from '../http/unix-seconds';
import type { Approval } from './approval.repository';
import type { ApprovalView } from './approvals.dto';

/** An approval as the operator API shows it. */
export const toApprovalView = (a: Approval): ApprovalView => ({
  id: a.id,
  status: a.status,
  kind: 'usdt_credit',
  withdrawal_id: null,
  partner_id: a.partnerId,
  document: a.document,
  usdt_micros: a.usdtMicros,
  idempotency_key: a.idempotencyKey,
  reference: a.reference,
  requested_by: a.requestedBy,
  requested_at: unixSeconds(a.requestedAt),
  decided_by: a.decidedBy,
  decided_at: a.decidedAt === null ? null : unixSeconds(a.decidedAt),
  note: a.note,
});

/** A withdrawal's approval (kept by the withdrawals service) as the operator API shows it. */
export const toWithdrawalApprovalView = (a: WithdrawalApproval): ApprovalView => ({
  id: a.id,
  status: a.status,
  kind: 'usdt_withdrawal',
  withdrawal_id: a.withdrawal_id,
  partner_id: a.partner_id,
  document: a.document,
  usdt_micros: a.usdt_micros,
  idempotency_key: a.idempotency_key,
  reference: null,
  requested_by: 'partner',
  requested_at: a.requested_at,
  decided_by: a.decided_by,
  decided_at: a.decided_at,
  note: a.note,
});
