import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { PIX_IN_STATUSES, PixInflow, PixInStatus } from '../pix-in.types';
import { integerString } from '../../query-transforms';
import { PartnerId } from '../../tenancy/partner-id';

/** Largest page; also the most one answer holds when no `limit` is given (docs/api.md: "Pix inflows"). */
export const MAX_PIX_IN_PAGE = 1000;

/**
 * Query of GET /partner/v1/pix-in. An extension (docs/api.md: "Pix inflows"), all optional: `limit` and `cursor` page the list
 * (the answer then carries `next_cursor`), `status` filters. Without them the answer is the plain `{pix_in}`.
 * Newest first. The cursor is opaque: its shape is checked here, its content by the inflows service.
 */
export class ListPixInflowsRequest {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PIX_IN_PAGE, description: 'Page size; the answer then has next_cursor' })
  @IsOptional()
  @Transform(integerString)
  @IsInt({ message: `limit must be an integer from 1 to ${MAX_PIX_IN_PAGE}` })
  @Min(1, { message: `limit must be an integer from 1 to ${MAX_PIX_IN_PAGE}` })
  @Max(MAX_PIX_IN_PAGE, { message: `limit must be an integer from 1 to ${MAX_PIX_IN_PAGE}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;

  @ApiPropertyOptional({ enum: PIX_IN_STATUSES })
  @IsOptional()
  @IsIn(PIX_IN_STATUSES, { message: `status must be one of ${PIX_IN_STATUSES.join(', ')}` })
  status?: PixInStatus;
}

export class ListPixInflowsQuery extends ListPixInflowsRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

export class ListPixInflowsResult {
  @ApiProperty({ type: () => [PixInflow], description: 'Newest first' })
  pix_in!: PixInflow[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `Present when paging (limit or cursor given): pass it as cursor for the next page; null on the last page. Without limit and cursor, present only when more than ${MAX_PIX_IN_PAGE} inflows matched`,
  })
  next_cursor?: string | null;
}
