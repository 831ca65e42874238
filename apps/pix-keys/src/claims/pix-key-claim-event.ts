import { randomUUID } from 'node:crypto';
import { PixKeyClaimChangedEvent, PixKeyClaimEvent, Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { toSnapshot } from '../pix-keys/pix-key-event';
import { PixKey } from '../pix-keys/pix-key.repository';
import { PixKeyClaim } from './pix-key-claim.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The claim event a claim's new status is, if it is one partners hear of (the donor's OPEN claim is not theirs yet). */
export function claimEventOf(claim: PixKeyClaim): PixKeyClaimEvent | null {
  const kinds: Partial<Record<PixKeyClaim['status'], PixKeyClaimEvent>> =
    claim.role === 'donor'
      ? { waiting_resolution: 'claim_received', confirmed: 'claim_confirmed', cancelled: 'claim_canceled', completed: 'claim_completed' }
      : { open: 'claim_requested', confirmed: 'claim_confirmed', cancelled: 'claim_canceled', completed: 'claim_completed' };
  return kinds[claim.status] ?? null;
}

/** The outbox row of a claim's `kind` on key `k`: a pix_key event whose state is the claim's, its data the key and the claim. */
export function claimChanged(k: PixKey, claim: PixKeyClaim, kind: PixKeyClaimEvent, at: Date) {
  const event: PixKeyClaimChangedEvent = {
    event_id: randomUUID(),
    partner_id: k.partnerId,
    type: 'pix_key',
    state: kind,
    resource_id: k.id,
    occurred_at: at.toISOString(),
    resource: {
      ...toSnapshot(k),
      claim: {
        id: claim.id,
        type: claim.type,
        role: claim.role,
        status: claim.status,
        resolution_period_end: unix(claim.resolutionPeriodEnd),
        decided_by: claim.decidedBy,
      },
    },
  };
  return outboxMessage(Topics.PixKeyClaimChanged, event);
}
