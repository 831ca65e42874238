import { randomUUID } from 'node:crypto';
import { PixInRefundStateChangedEvent, PixInRefundView, Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { PixInRefundRecord } from './pix-in-refund.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** A refund as the partner reads it (docs/api.md: "Refunds"); amounts fit a safe integer (at most the inflow's). */
export function toPixInRefundView(r: PixInRefundRecord): PixInRefundView {
  return {
    id: Number(r.id),
    end_to_end_id: r.endToEndId,
    amount_cents: Number(r.amountCents),
    reason: r.reason,
    status: r.status,
    failure_reason: r.failureReason,
    return_id: r.rtrId,
    created_at: unix(r.createdAt),
    last_updated_at: unix(r.updatedAt),
  };
}

/** The outbox row reporting that the refund reached its current status. */
export function pixInRefundStateChanged(r: PixInRefundRecord) {
  const event: PixInRefundStateChangedEvent = {
    event_id: randomUUID(),
    partner_id: r.partnerId,
    type: 'pix_in_refund',
    state: r.status,
    resource_id: r.id.toString(),
    occurred_at: r.updatedAt.toISOString(),
    resource: { ...toPixInRefundView(r), document: r.document },
  };
  return outboxMessage(Topics.PixInRefundStateChanged, event);
}
