import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { Equals, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { Nullable } from '../../feed/nullable.validator';
import { FeedEvent } from '../../feed/feed-event.event';
import { UnixSeconds } from '../../feed/unix-seconds.property';

/**
 * A Pix key's life: `pending` (registration requested) → `registered` or `failed`; then `deleting`
 * (deletion requested) → `canceled` (deleted; the confirmation, docs/api.md "Pix keys"). A canceled or failed key can
 * be registered again, as a new key.
 */
export const PIX_KEY_STATES = ['pending', 'registered', 'failed', 'deleting', 'canceled'] as const;
export type PixKeyState = (typeof PIX_KEY_STATES)[number];

/**
 * Why a registration `failed` (docs/api.md, "Pix keys"): the user has no holder's name, or no payment account,
 * or a name DICT does not take (before any call to DICT); DICT refused the key because another institution holds
 * it (`key_held_elsewhere`, EntryKeyInCustodyOfDifferentParticipant), because it is already linked to another
 * account at this operator (`key_linked_to_another_account`, EntryAlreadyExists), or for any other reason
 * (`dict_rejected`); or the portability claimed for it was cancelled (`claim_canceled`).
 */
export const PIX_KEY_FAILURE_REASONS = [
  'holder_name_missing',
  'account_missing',
  'holder_name_invalid',
  'key_held_elsewhere',
  'key_linked_to_another_account',
  'dict_rejected',
  'claim_canceled',
] as const;
export type PixKeyFailureReason = (typeof PIX_KEY_FAILURE_REASONS)[number];

/**
 * A key's type: the user's CPF (`cpf`), or a random key DICT generates (`evp`, DICT's "Endereço Virtual de
 * Pagamento", a lower-case UUID known once DICT registered it).
 */
export const PIX_KEY_TYPES = ['cpf', 'evp'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** The key as partners see it inside a pix_key event. */
export class PixKeySnapshot {
  @ApiProperty({ format: 'uuid', description: "The key's id (the event's resource_id)" })
  @IsUUID()
  id!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The Pix key: the CPF itself for a cpf key; for an evp key, the UUID DICT generated, null until DICT registered it (pending, or failed)',
    example: '52998224725',
  })
  @Nullable()
  @IsString()
  key!: string | null;

  @ApiProperty({ enum: PIX_KEY_TYPES })
  @IsIn(PIX_KEY_TYPES)
  key_type!: PixKeyType;

  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ enum: PIX_KEY_STATES })
  @IsIn(PIX_KEY_STATES)
  state!: PixKeyState;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why a failed registration failed (one of holder_name_missing, account_missing, holder_name_invalid, key_held_elsewhere, key_linked_to_another_account, dict_rejected, claim_canceled); null in every other state. holder_name_missing, account_missing, holder_name_invalid: the user lacks what DICT records, or has a name DICT does not take (the operator registers the user again with it, then the partner asks again); key_held_elsewhere: another institution holds the CPF as a key (the user must release it there); key_linked_to_another_account: the CPF is a key of another account at this operator; dict_rejected: DICT refused it otherwise; claim_canceled: the portability asked for it was cancelled (by the institution holding it, or at the end of its resolution period)',
    example: null,
  })
  @Nullable()
  @IsIn(PIX_KEY_FAILURE_REASONS)
  failure_reason!: PixKeyFailureReason | null;

  @UnixSeconds()
  created_at!: number;

  @UnixSeconds()
  last_updated_at!: number;
}

export class PixKeyStateChangedEvent extends FeedEvent<PixKeySnapshot> {
  @Equals('pix_key')
  override type!: 'pix_key';

  @IsIn(PIX_KEY_STATES)
  override state!: PixKeyState;

  @ValidateNested()
  @Type(() => PixKeySnapshot)
  override resource!: PixKeySnapshot;
}
