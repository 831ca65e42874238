import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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

/** The answer of POST /sandbox/v1/partners: the API key is shown this once (only its SHA-256 is stored). */
export class CreatePartnerResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'acme' })
  name!: string;

  @ApiProperty({ description: 'The X-API-Key of the partner: pk_sandbox_ and 43 characters', example: 'pk_sandbox_Jr3BV9Z3Yp0x1Q2lUQm5u8b8wI1o7lZ0qYxv6w8d4Zk' })
  api_key!: string;
}
