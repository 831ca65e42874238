import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { PartnerId } from '../../tenancy/partner-id';

const pixKeysCode = codesOf('pix_keys');

/** Body of POST /partner/v1/pix-key (docs/api.md: "Pix keys"). The key registered is the user's CPF. */
export class CreatePixKeyRequest {
  @ApiProperty({ description: "User's CPF, 11 digits; it becomes the Pix key", example: '52998224725' })
  @IsCpf(pixKeysCode('invalid_document'))
  document!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key!: string;
}

export class CreatePixKeyCommand extends CreatePixKeyRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/**
 * Spec 4.3/4.4 answers: `accepted` (202), `already_sent` and `succeeded` (200). Failures travel as
 * error replies (`already_exists`, `user_not_found`, `not_found`, `invalid_document`).
 */
export const PIX_KEY_ANSWERS = ['accepted', 'already_sent', 'succeeded'] as const;
export type PixKeyAnswer = (typeof PIX_KEY_ANSWERS)[number];

/** The HTTP answer of both Pix key commands (202 accepted; 200 already_sent or succeeded). */
export class PixKeyStatusResult {
  @ApiProperty({ enum: PIX_KEY_ANSWERS })
  status!: PixKeyAnswer;
}

/** The reply of both Pix key commands: the answer, and whether it replays the idempotency key's first one (the gateway's Idempotent-Replayed). */
export class PixKeyCommandResult extends PixKeyStatusResult {
  replayed!: boolean;
}
