import { MedCaseChangedEvent, MedCaseView, Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { MedCaseRecord } from './med-case.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** A case as the operator reads it; cents fit a safe integer (at most an inflow's). */
export function toMedCaseView(c: MedCaseRecord): MedCaseView {
  return {
    case_id: c.caseId,
    kind: c.kind,
    reason: c.reason,
    end_to_end_id: c.endToEndId,
    partner_id: c.user?.partnerId ?? null,
    document: c.user?.document ?? null,
    status: c.status,
    asked_cents: Number(c.askedCents),
    blocked_cents: Number(c.blockedCents),
    returned_cents: Number(c.returnedCents),
    attention: c.attention,
    details: c.details,
    infraction_report_id: c.infractionReportId,
    opened_by: c.openedBy,
    opened_at: unix(c.openedAt),
    dict_result: c.dictResult,
    rejection_reason: c.rejectionReason,
    analysis_details: c.analysisDetails,
    refund_transaction_id: c.refundTransactionId,
    decided_by: c.decidedBy,
    created_at: unix(c.createdAt),
    last_updated_at: unix(c.updatedAt),
  };
}

/** The outbox row reporting the case's current status (with dict_result once decided: the pix-keys service closes it in DICT). */
export function medCaseChanged(c: MedCaseRecord) {
  const event: MedCaseChangedEvent = {
    case_id: c.caseId,
    kind: c.kind,
    end_to_end_id: c.endToEndId,
    status: c.status,
    blocked_cents: Number(c.blockedCents),
    returned_cents: Number(c.returnedCents),
    // A cancelled case tells DICT nothing (its opener withdrew it there), even an agreed report's AGREED.
    dict_result: c.status === 'cancelled' ? null : c.dictResult,
    rejection_reason: c.rejectionReason,
    analysis_details: c.analysisDetails,
    refund_transaction_id: c.refundTransactionId,
    changed_at: c.updatedAt.toISOString(),
  };
  return outboxMessage(Topics.MedCaseChanged, event);
}
