import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * Makes a user known to a service that keeps users of its own (withdrawals: the USDT account; pix-keys,
 * inflows). The gateway sends it to each of them when an operator (or the sandbox) registers a user;
 * idempotent.
 */
export class UpsertUserCommand {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

export interface UpsertUserResult {
  created: boolean;
  /** When this service first knew the user (ISO 8601). */
  created_at: string;
}
