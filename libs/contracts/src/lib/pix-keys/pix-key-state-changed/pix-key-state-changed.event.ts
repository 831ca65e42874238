import { ApiProperty } from '@nestjs/swagger';
import { Equals, IsIn } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';

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
  id!: string;

  @ApiProperty({ description: 'The Pix key: the CPF itself', example: '52998224725' })
  key!: string;

  @ApiProperty({ enum: ['cpf'] })
  key_type!: 'cpf';

  @ApiProperty({ description: "The user's CPF", example: '52998224725' })
  document!: string;

  @ApiProperty({ enum: PIX_KEY_STATES })
  state!: PixKeyState;

  @ApiProperty({ type: String, nullable: true, description: 'Why a failed registration failed (dict_rejected)', example: null })
  failure_reason!: string | null;

  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created_at!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  last_updated_at!: number;
}

export class PixKeyStateChangedEvent extends FeedEvent<PixKeySnapshot> {
  @Equals('pix_key')
  override type!: 'pix_key';

  @IsIn(PIX_KEY_STATES)
  override state!: PixKeyState;
}
