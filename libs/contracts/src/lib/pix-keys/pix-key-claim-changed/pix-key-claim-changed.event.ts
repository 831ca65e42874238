import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { Equals, IsIn, IsUUID, ValidateNested } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';
import { Nullable } from '../../feed/nullable.validator';
import { UnixSeconds } from '../../feed/unix-seconds.property';
import { PixKeySnapshot } from '../pix-key-state-changed/pix-key-state-changed.event';

/**
 * What happened to a claim of a partner's key, as the `state` of a `pix_key` event (docs/api.md, "Claims"):
 * another institution claims the key (`claim_received`: the partner may confirm or cancel), or this operator
 * claimed it for the partner's user (`claim_requested`: a portability); the claim was confirmed by the donor,
 * canceled, or completed by the claimer.
 */
export const PIX_KEY_CLAIM_EVENTS = ['claim_received', 'claim_requested', 'claim_confirmed', 'claim_canceled', 'claim_completed'] as const;
export type PixKeyClaimEvent = (typeof PIX_KEY_CLAIM_EVENTS)[number];

export const CLAIM_TYPES = ['portability', 'ownership'] as const;
export const CLAIM_STATUSES = ['open', 'waiting_resolution', 'confirmed', 'cancelled', 'completed'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** A claim as partners see it, inside the `claim` of a claim event's data. */
export class PixKeyClaimView {
  @ApiProperty({ format: 'uuid', description: "DICT's claim id: the {claim_id} of the confirm and cancel routes" })
  @IsUUID()
  id!: string;

  @ApiProperty({ enum: CLAIM_TYPES, description: 'portability (the same person moves the key elsewhere) or ownership (another person)' })
  @IsIn(CLAIM_TYPES)
  type!: (typeof CLAIM_TYPES)[number];

  @ApiProperty({
    enum: ['donor', 'claimer'],
    description: 'donor: another institution claims a key held here; claimer: this operator claims a key held elsewhere',
  })
  @IsIn(['donor', 'claimer'])
  role!: 'donor' | 'claimer';

  @ApiProperty({ enum: CLAIM_STATUSES, description: "DICT's status of the claim" })
  @IsIn(CLAIM_STATUSES)
  status!: ClaimStatus;

  @ApiProperty({
    type: 'integer',
    description: 'Unix seconds: the end of the resolution period, when the default applies (docs/api.md, "Claims")',
  })
  @UnixSeconds()
  resolution_period_end!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['partner', 'default'],
    description:
      'Who decided a confirmed or canceled claim here: the partner, or the default at the end of the resolution period; null otherwise',
  })
  @Nullable()
  @IsIn(['partner', 'default'])
  decided_by!: 'partner' | 'default' | null;
}

/** A pix_key event's data for a claim: the key as it is, and the claim. */
export class PixKeyClaimSnapshot extends PixKeySnapshot {
  @ValidateNested()
  @Type(() => PixKeyClaimView)
  claim!: PixKeyClaimView;
}

export class PixKeyClaimChangedEvent extends FeedEvent<PixKeyClaimSnapshot> {
  @Equals('pix_key')
  override type!: 'pix_key';

  @IsIn(PIX_KEY_CLAIM_EVENTS)
  override state!: PixKeyClaimEvent;

  @ValidateNested()
  @Type(() => PixKeyClaimSnapshot)
  override resource!: PixKeyClaimSnapshot;
}
