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

/** The key as partners see it inside a pix_key event. */
export class PixKeySnapshot {
  @ApiProperty({ format: 'uuid', description: "The key's id (the event's resource_id)" })
  @IsUUID()
  id!: string;

  @ApiProperty({ description: 'The Pix key: the CPF itself', example: '52998224725' })
  @IsString()
  key!: string;

  @ApiProperty({ enum: ['cpf'] })
  @Equals('cpf')
  key_type!: 'cpf';

  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ enum: PIX_KEY_STATES })
  @IsIn(PIX_KEY_STATES)
  state!: PixKeyState;

  @ApiProperty({ type: String, nullable: true, description: 'Why a failed registration failed (dict_rejected)', example: null })
  @Nullable()
  @IsString()
  failure_reason!: string | null;

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
