import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class CreatePartnerRequest {
  @ApiPropertyOptional({ example: 'acme' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  name?: string;

  /** The partner's own rate limit (requests per second); absent = RATE_LIMIT_PER_SECOND. */
  @ApiPropertyOptional({ example: 5, minimum: 1, maximum: 1_000_000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rate_limit_per_second?: number;

  /** The partner's own burst; absent = rate_limit_per_second when that is set, else RATE_LIMIT_BURST. */
  @ApiPropertyOptional({ example: 5, minimum: 1, maximum: 1_000_000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rate_limit_burst?: number;
}
