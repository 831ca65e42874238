import { IsIn, IsISO8601, IsUUID } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

export const PARTNER_STATUSES = ['active', 'disabled'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

/**
 * gateway.event.partner-status-changed.v1: an operator disabled a partner, or re-enabled it. Every gateway
 * instance consumes it (a consumer group of its own, like the key revocations) and forgets the partner's
 * cached keys at once, so the next request reads the partner's status from the database: refused within
 * about a second of a disable, accepted again as soon after a re-enable. Written to the gateway's outbox
 * in the transaction that changed the status.
 */
export class PartnerStatusChangedEvent {
  @IsUUID()
  partner_id!: PartnerId;

  @IsIn(PARTNER_STATUSES)
  status!: PartnerStatus;

  @IsISO8601()
  changed_at!: string;
}
