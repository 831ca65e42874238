import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsUUID } from 'class-validator';
import { FEED_EVENT_TYPES, FeedEventType } from '../../feed/feed-event.event';
import { booleanString } from '../../query-transforms';
import { DEFAULT_PAGE, IsCursorOf, IsPageLimit, MAX_PAGE } from '../../paging/list-page';
import { PARTNER_EVENT_SCHEMAS, partnerEventSchema } from './partner-event.result';
import { PartnerId } from '../../tenancy/partner-id';

/** The feed's page sizes are every list's (paging/list-page.ts). */
export const DEFAULT_EVENTS_PAGE = DEFAULT_PAGE;
export const MAX_EVENTS_PAGE = MAX_PAGE;

/**
 * The feed cursor: base64url of the last sequence a partner has seen. Opaque to partners (docs/api.md
 * says so), so its form may change; `0` is "before the first event".
 */
export const encodeEventsCursor = (sequence: number): string => Buffer.from(String(sequence)).toString('base64url');

/** The sequence a cursor resumes after, or undefined when it is not one this service issued. */
export function decodeEventsCursor(cursor: unknown): number | undefined {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,24}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString();
  // Only the canonical form: "007" or trailing bits would be a second spelling of one position.
  if (!/^(0|[1-9]\d{0,15})$/.test(text) || encodeEventsCursor(Number(text)) !== cursor) return undefined;
  const sequence = Number(text);
  return Number.isSafeInteger(sequence) ? sequence : undefined;
}

const IsEventsCursor = (): PropertyDecorator => IsCursorOf(decodeEventsCursor, 'cursor must be a next_cursor returned by this endpoint');

/** Query string of GET /partner/v1/events. Query values arrive as strings; only exact forms are accepted. */
export class ListEventsRequest {
  @ApiPropertyOptional({ description: 'false: not yet delivered; true: delivered; absent: both', type: Boolean })
  @IsOptional()
  @Transform(booleanString)
  @IsBoolean({ message: 'delivered must be true or false' })
  delivered?: boolean;

  @ApiPropertyOptional({ type: 'integer', description: 'Page size', minimum: 1, maximum: MAX_EVENTS_PAGE, default: DEFAULT_EVENTS_PAGE })
  @IsOptional()
  @IsPageLimit()
  limit?: number;

  @ApiPropertyOptional({ description: 'Only events of this type', enum: FEED_EVENT_TYPES })
  @IsOptional()
  @IsIn(FEED_EVENT_TYPES, { message: `type must be one of ${FEED_EVENT_TYPES.join(', ')}` })
  type?: FeedEventType;

  @ApiPropertyOptional({ description: 'Resume after the events already seen: the next_cursor of the previous answer' })
  @IsOptional()
  @IsEventsCursor()
  cursor?: string;
}

export class ListEventsQuery extends ListEventsRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/** One event as partners receive it (documented in docs/api.md, "Events feed"). */
export interface PartnerEvent {
  id: string;
  /** 1, 2, 3... per partner, no gaps: the feed's order. */
  sequence: number;
  type: string;
  state: string;
  resource_id: string;
  created_at: number;
  delivered: boolean;
  /** The X-Request-Id of the partner's call that caused this event; null when none did (a timer's or the chain's move). */
  request_id: string | null;
  data: Record<string, unknown>;
}

@ApiExtraModels(...Object.values(PARTNER_EVENT_SCHEMAS))
export class ListEventsResult {
  @ApiProperty({ type: 'array', items: partnerEventSchema(), description: 'In `sequence` order, oldest first' })
  events!: PartnerEvent[];

  @ApiProperty({ description: 'Opaque: pass it as cursor to get the events after these (with the same filters)', example: 'Mg' })
  next_cursor!: string;
}
