import { ApiPropertyOptional } from '../api-documentation';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { integerString } from '../query-transforms';

export const DEFAULT_OPERATOR_PAGE = 50;
export const MAX_OPERATOR_PAGE = 200;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_OPERATOR_PAGE}`;

/** `limit` and `cursor` of an operator listing (users, a user's ledger). The cursor is opaque: its shape is checked here, its content by the service. */
export class OperatorPageRequest {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Page size',
    minimum: 1,
    maximum: MAX_OPERATOR_PAGE,
    default: DEFAULT_OPERATOR_PAGE,
  })
  @IsOptional()
  @Transform(integerString)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_OPERATOR_PAGE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;
}
