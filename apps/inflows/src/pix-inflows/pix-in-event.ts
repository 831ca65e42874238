import { randomUUID } from 'node:crypto';
import { PixInflow, PixInStateChangedEvent, Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { PixInflowRecord } from './pix-inflow.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The inflow exactly as docs/api.md ("Pix inflows") lists it, in its field order. `description` is left out when the payer
 * sent none (never null); amounts fit a safe integer by the simulator's bound.
 */
export function toPixInflow(r: PixInflowRecord): PixInflow {
  return {
    amount_cents: Number(r.amountCents),
    ...(r.description !== null && { description: r.description }),
    end_to_end_id: r.endToEndId,
    method: r.method,
    sender_name: r.senderName,
    sender_tax_id: r.senderTaxId,
    sender_account_number: r.senderAccountNumber,
    sender_account_type: r.senderAccountType,
    sender_bank_code: r.senderBankCode,
    sender_branch_code: r.senderBranchCode,
    created_at: unix(r.createdAt),
    last_updated_at: unix(r.updatedAt),
    status: r.status,
  };
}

/** The outbox row reporting that the inflow reached its current status (its contract keys it by inflow). */
export function pixInStateChanged(r: PixInflowRecord) {
  const event: PixInStateChangedEvent = {
    event_id: randomUUID(),
    partner_id: r.partnerId,
    type: 'pix_in',
    state: r.status,
    resource_id: r.endToEndId,
    occurred_at: r.updatedAt.toISOString(),
    resource: { ...toPixInflow(r), document: r.document },
  };
  return outboxMessage(Topics.PixInStateChanged, event);
}
