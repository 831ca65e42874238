import { IsISO8601, IsUUID } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * gateway.event.api-key-revoked.v1: an operator revoked a partner's API key. Every gateway instance
 * consumes it (a consumer group of its own) and forgets the key at once, instead of waiting for its
 * key cache to expire. Written to the gateway's outbox in the revoking transaction.
 */
export class ApiKeyRevokedEvent {
  @IsUUID()
  partner_id!: PartnerId;

  @IsUUID()
  key_id!: string;

  @IsISO8601()
  revoked_at!: string;
}
