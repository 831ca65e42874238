import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { PARTNER_STATUSES, PartnerStatus } from '@partner/contracts';

/** A partner's own rate limit, optional when it is created (the sandbox's and the operator's creation alike). */
export class PartnerLimitsRequest {
  /** The partner's own rate limit (requests per second); absent = RATE_LIMIT_PER_SECOND. */
  @ApiPropertyOptional({ type: 'integer', example: 5, minimum: 1, maximum: 1_000_000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rate_limit_per_second?: number;

  /** The partner's own burst; absent = rate_limit_per_second when that is set, else RATE_LIMIT_BURST. */
  @ApiPropertyOptional({ type: 'integer', example: 5, minimum: 1, maximum: 1_000_000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rate_limit_burst?: number;
}

/** Body of POST /admin/v1/partners. */
export class AdminPartnerRequest extends PartnerLimitsRequest {
  @ApiProperty({ description: 'How operators recognise the partner', example: 'acme', minLength: 1, maxLength: 120 })
  @IsString()
  @Length(1, 120)
  name!: string;
}

/** A partner as the operator API answers it. */
export class AdminPartnerView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'acme' })
  name!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  created_at!: number;
}

/** The path of every /admin/v1/partners/{partner_id}/... route. */
export class PartnerParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'partner_id must be a UUID' })
  partner_id!: string;
}

/** A partner with what an operator checks first: whether it is enabled, and how many keys it holds. */
export class AdminPartnerDetail extends AdminPartnerView {
  @ApiProperty({
    enum: PARTNER_STATUSES,
    description: 'disabled: every API key of the partner is refused (403 partner_disabled); its data is kept',
  })
  status!: PartnerStatus;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds: since when it is disabled; null while active',
    example: null,
  })
  disabled_at!: number | null;

  @ApiProperty({ type: 'integer', description: 'API keys not revoked', example: 1 })
  active_api_keys!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Its own rate limit (requests per second); null = the gateway default',
    example: null,
  })
  rate_limit_per_second!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Its own burst; null = the default', example: null })
  rate_limit_burst!: number | null;
}

/** Answer of GET /admin/v1/partners. */
export class AdminPartnerPage {
  @ApiProperty({ type: [AdminPartnerDetail], description: 'Newest first' })
  partners!: AdminPartnerDetail[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next (older) page; null on the last page' })
  next_cursor!: string | null;
}
