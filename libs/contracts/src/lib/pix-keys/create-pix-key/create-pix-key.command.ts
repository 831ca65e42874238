import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { PartnerId } from '../../tenancy/partner-id';
import { DICT_NAME_MAX_LENGTH, DICT_NAME_MESSAGE, DICT_NATURAL_PERSON_NAME } from '../../users/upsert-user/upsert-user.command';

const pixKeysCode = codesOf('pix_keys');

/** Body of POST /partner/v1/pix-key (docs/api.md: "Pix keys"). The key registered is the user's CPF. */
export class CreatePixKeyRequest {
  @ApiProperty({ description: "User's CPF, 11 digits; it becomes the Pix key", example: '52998224725' })
  @IsCpf(pixKeysCode('invalid_document'))
  document!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key!: string;

  /**
   * An extension: the holder's name DICT records with the key, for a user who has none or to correct the
   * one on file; it becomes the user's holder name. Held to DICT's rule here, so a key is never accepted
   * with a name DICT would refuse.
   */
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: DICT_NAME_MAX_LENGTH,
    pattern: DICT_NATURAL_PERSON_NAME.source,
    description:
      "The holder's name as DICT records it with the key (letters, accented ones included, spaces, ' and -; up to 120). Optional when the user has a name on file (given at registration or with an earlier key); given, it replaces that name. A user without one is refused with 422 holder_name_missing.",
    example: 'Maria Souza',
  })
  @IsOptional()
  @IsString({ message: DICT_NAME_MESSAGE })
  @Matches(DICT_NATURAL_PERSON_NAME, { message: DICT_NAME_MESSAGE })
  @Matches(/\S/, { message: DICT_NAME_MESSAGE })
  @MaxLength(DICT_NAME_MAX_LENGTH, { message: DICT_NAME_MESSAGE })
  name?: string;
}

export class CreatePixKeyCommand extends CreatePixKeyRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/**
 * Spec 4.3/4.4 answers: `accepted` (202), `already_sent` and `succeeded` (200). Failures travel as
 * error replies (`already_exists`, `user_not_found`, `holder_name_missing`, `holder_name_invalid`, `not_found`,
 * `invalid_document`).
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
