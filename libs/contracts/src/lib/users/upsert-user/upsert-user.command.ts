import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';

/**
 * Sandbox: makes a user known to a service that keeps users of its own (pix-keys, inflows). The gateway
 * sends it with the withdrawals credit when POST /sandbox/v1/users is called; idempotent.
 */
export class UpsertUserCommand {
  @IsUUID()
  partner_id!: string;

  @IsCpf()
  document!: string;
}

export interface UpsertUserResult {
  created: boolean;
}
