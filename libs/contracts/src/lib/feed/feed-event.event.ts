import { IsIn, IsISO8601, IsObject, IsString, IsUUID, MaxLength } from 'class-validator';
import { PartnerId } from '../tenancy/partner-id';

/** Event types partners see in their feed (`type` field). */
export const FEED_EVENT_TYPES = ['usdt_withdrawal', 'pix_key', 'pix_in', 'pix_in_refund', 'business_customer'] as const;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];

/**
 * Envelope of every domain event that ends up in a partner's feed. The producing service fills it in
 * its outbox, in the same transaction as the state change; the events service stores it as it is,
 * keyed by `event_id`, so a redelivered message changes nothing.
 */
export class FeedEvent<R extends object = object> {
  @IsUUID()
  event_id!: string;

  @IsUUID()
  partner_id!: PartnerId;

  @IsIn(FEED_EVENT_TYPES)
  type!: FeedEventType;

  @IsString()
  @MaxLength(64)
  state!: string;

  @IsString()
  @MaxLength(128)
  resource_id!: string;

  @IsISO8601({ strict: true })
  occurred_at!: string;

  /** Snapshot of the resource as it was right after this change. */
  @IsObject()
  resource!: R;
}
