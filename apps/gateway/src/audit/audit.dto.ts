import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { integerString, positiveIntegerString } from '@partner/contracts';

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_AUDIT_PAGE}`;
/** Year 9999: a time past it is a mistake, not a filter. */
const MAX_UNIX_SECONDS = 253_402_300_799;
const FROM_MESSAGE = 'from must be a time in Unix seconds';
const TO_MESSAGE = 'to must be a time in Unix seconds';
const unixSecondsString = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
const BEFORE_MESSAGE = 'before must be a positive integer: the next_cursor of the previous page';

/** Query of GET /admin/v1/audit-log. Query values arrive as strings; only exact forms are accepted. */
export class AuditLogQuery {
  @ApiPropertyOptional({ type: 'integer', description: 'Page size', minimum: 1, maximum: MAX_AUDIT_PAGE, default: DEFAULT_AUDIT_PAGE })
  @IsOptional()
  @Transform(integerString)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_AUDIT_PAGE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Entries older than this id: the next_cursor of the previous page' })
  @IsOptional()
  @Transform(positiveIntegerString)
  @IsInt({ message: BEFORE_MESSAGE })
  @Min(1, { message: BEFORE_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: BEFORE_MESSAGE })
  before?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only calls whose path named this partner' })
  @IsOptional()
  @IsUUID('all', { message: 'partner_id must be a UUID' })
  partner_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only calls made with this operator key (its id, as in operator_key_id)' })
  @IsOptional()
  @IsUUID('all', { message: 'operator_key_id must be a UUID' })
  operator_key_id?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Only calls at or after this time (Unix seconds)' })
  @IsOptional()
  @Transform(unixSecondsString)
  @IsInt({ message: FROM_MESSAGE })
  @Min(0, { message: FROM_MESSAGE })
  @Max(MAX_UNIX_SECONDS, { message: FROM_MESSAGE })
  from?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Only calls before this time (Unix seconds, exclusive)' })
  @IsOptional()
  @Transform(unixSecondsString)
  @IsInt({ message: TO_MESSAGE })
  @Min(0, { message: TO_MESSAGE })
  @Max(MAX_UNIX_SECONDS, { message: TO_MESSAGE })
  to?: number;
}

/** One operator call. */
export class AuditLogEntryView {
  @ApiProperty({ type: 'integer', description: 'Increasing: newer calls have larger ids', example: 42 })
  id!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  occurred_at!: number;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The operator key used; null when the call had no valid one (a 401)',
  })
  operator_key_id!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "That key's prefix (its first characters, never enough to use it); null with operator_key_id",
    example: 'adm_Jr3BV9Z3Yp0x',
  })
  operator_key_prefix!: string | null;

  @ApiProperty({ example: 'DELETE' })
  method!: string;

  @ApiProperty({
    description: 'The route pattern; `unmatched` for a path no route has',
    example: '/admin/v1/partners/:partner_id/api-keys/:key_id',
  })
  route!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The partner_id of the path, as sent',
    example: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
  })
  partner_id!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The key_id of the path, as sent',
    example: '0b6c2a1e-3f5c-4c1e-9a0b-7a0d1a2e8a43',
  })
  key_id!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The CPF of the path, as sent', example: null })
  document!: string | null;

  @ApiProperty({ type: 'integer', description: 'The HTTP status answered', example: 200 })
  status_code!: number;

  @ApiProperty({ description: 'The X-Request-Id of the call', example: '4f1d2c3b-5a6e-4b7c-8d9e-0f1a2b3c4d5e' })
  request_id!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The amount the call asked to move (a credit's usdt_micros, refused or not); null when it named none",
    example: null,
  })
  usdt_micros!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The client's address as the gateway read it (behind TRUST_PROXY_HOPS proxies); null for the CLI's entries",
    example: '203.0.113.7',
  })
  client_address!: string | null;
}

/** Answer of GET /admin/v1/audit-log. */
export class AuditLogPage {
  @ApiProperty({ type: [AuditLogEntryView], description: 'Newest first' })
  entries!: AuditLogEntryView[];

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Pass as `before` for the next (older) page; null on the last page',
    example: 41,
  })
  next_cursor!: number | null;
}
