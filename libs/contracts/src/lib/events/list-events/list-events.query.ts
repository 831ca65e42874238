import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';

export const DEFAULT_EVENTS_PAGE = 100;
export const MAX_EVENTS_PAGE = 1000;

const booleanString = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
const integerString = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

/** Query string of GET /partner/v1/events. Query values arrive as strings; only exact forms are accepted. */
export class ListEventsRequest {
  @ApiPropertyOptional({ description: 'false: not yet delivered; true: delivered; absent: both', type: Boolean })
  @IsOptional()
  @Transform(booleanString)
  @IsBoolean({ message: 'delivered must be true or false' })
  delivered?: boolean;

  @ApiPropertyOptional({ description: 'Page size', minimum: 1, maximum: MAX_EVENTS_PAGE, default: DEFAULT_EVENTS_PAGE })
  @IsOptional()
  @Transform(integerString)
  @IsInt({ message: `limit must be an integer from 1 to ${MAX_EVENTS_PAGE}` })
  @Min(1, { message: `limit must be an integer from 1 to ${MAX_EVENTS_PAGE}` })
  @Max(MAX_EVENTS_PAGE, { message: `limit must be an integer from 1 to ${MAX_EVENTS_PAGE}` })
  limit?: number;
}

export class ListEventsQuery extends ListEventsRequest {
  @IsUUID()
  partner_id!: string;
}

/** One event as partners receive it (documented in README, "Event format"). */
export interface PartnerEvent {
  id: string;
  type: string;
  state: string;
  resource_id: string;
  created_at: number;
  delivered: boolean;
  data: Record<string, unknown>;
}

export interface ListEventsResult {
  events: PartnerEvent[];
}
