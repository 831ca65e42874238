import { ReconciliationFindingView } from '@partner/contracts';
import { Finding } from './reconciliation.repository';

const seconds = (d: Date | null): number | null => (d ? Math.floor(d.getTime() / 1000) : null);

/** A finding as the operator API shows it. */
export function toFindingView(f: Finding): ReconciliationFindingView {
  return {
    id: f.id,
    network: f.network,
    kind: f.kind,
    withdrawal_id: f.withdrawalId,
    subject: f.subject,
    detail: f.detail,
    status: f.status,
    acknowledged_at: seconds(f.acknowledgedAt),
    acknowledged_by: f.acknowledgedBy,
    resolved_at: seconds(f.resolvedAt),
    resolved_by: f.resolvedBy,
    note: f.note,
    created_at: Math.floor(f.createdAt.getTime() / 1000),
  };
}
