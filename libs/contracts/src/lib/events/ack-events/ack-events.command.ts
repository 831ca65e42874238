import { ApiProperty } from '../../api-documentation';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

export const MAX_ACK_EVENTS = 1000;

/** Body of POST /partner/v1/events/ack: acknowledge many feed events at once. */
export class AckEventsRequest {
  @ApiProperty({ description: 'Event ids to mark delivered', type: [String], format: 'uuid', minItems: 1, maxItems: MAX_ACK_EVENTS })
  @IsArray({ message: `ids must be a list of 1 to ${MAX_ACK_EVENTS} event ids` })
  @ArrayMinSize(1, { message: `ids must be a list of 1 to ${MAX_ACK_EVENTS} event ids` })
  @ArrayMaxSize(MAX_ACK_EVENTS, { message: `ids must be a list of 1 to ${MAX_ACK_EVENTS} event ids` })
  @IsUUID('all', { each: true, message: 'ids must contain only event ids (UUIDs)' })
  ids!: string[];
}

export class AckEventsCommand extends AckEventsRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

export class AckEventsResult {
  @ApiProperty({ type: 'integer', description: 'How many of the ids are yours, now (or already) delivered', example: 1 })
  acknowledged!: number;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: "The ids you have no event for (unknown, removed by retention, or another partner's); nothing was changed for them",
    example: ['5f1c2b9e-3d4a-4b6c-9e8f-0a1b2c3d4e5f'],
  })
  not_found!: string[];
}
