import { IsIn, IsISO8601, IsOptional, IsUUID, ValidateIf } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * gateway.event.api-key-revoked.v1: an operator revoked a partner's API key, or an operator key was
 * revoked (`key_type: operator`, from the CLI). Every gateway instance consumes it (a consumer group of
 * its own) and forgets the key at once, instead of waiting for its key cache to expire. Written to the
 * gateway's outbox in the revoking transaction.
 */
export class ApiKeyRevokedEvent {
  /** Absent: a partner's API key (the only kind this topic carried before operator keys). */
  @IsOptional()
  @IsIn(['partner', 'operator'])
  key_type?: 'partner' | 'operator';

  /** The partner whose key it was; absent for an operator key. */
  @ValidateIf((e: ApiKeyRevokedEvent) => e.key_type !== 'operator')
  @IsUUID()
  partner_id?: PartnerId;

  @IsUUID()
  key_id!: string;

  @IsISO8601()
  revoked_at!: string;
}
