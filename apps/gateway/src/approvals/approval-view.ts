import { unixSeconds } from '../http/unix-seconds';
import type { Approval } from './approval.repository';
import type { ApprovalView } from './approvals.dto';

/** An approval as the operator API shows it. */
export const toApprovalView = (a: Approval): ApprovalView => ({
  id: a.id,
  status: a.status,
  kind: 'usdt_credit',
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
