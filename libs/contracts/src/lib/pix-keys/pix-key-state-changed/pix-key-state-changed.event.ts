import { Equals, IsIn } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';

/**
 * A Pix key's life: `pending` (registration requested) → `registered` or `failed`; then `deleting`
 * (deletion requested) → `canceled` (deleted; the spec's confirmation). A canceled or failed key can
 * be registered again, as a new key.
 */
export const PIX_KEY_STATES = ['pending', 'registered', 'failed', 'deleting', 'canceled'] as const;
export type PixKeyState = (typeof PIX_KEY_STATES)[number];

/** The key as partners see it inside a pix_key event. */
export interface PixKeySnapshot {
  id: string;
  key: string;
  key_type: 'cpf';
  document: string;
  state: PixKeyState;
  failure_reason: string | null;
  created_at: number;
  last_updated_at: number;
}

export class PixKeyStateChangedEvent extends FeedEvent<PixKeySnapshot> {
  @Equals('pix_key')
  override type!: 'pix_key';

  @IsIn(PIX_KEY_STATES)
  override state!: PixKeyState;
}
