import { ApiProperty } from '../../api-documentation';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { positiveIntegerString } from '../../query-transforms';
import { Beneficiary, NULLABLE_BENEFICIARY_SCHEMA } from '../beneficiary/beneficiary';

const SECONDS_MESSAGE = (f: string) => `${f} must be Unix seconds`;

/** The body of POST /admin/v1/reports/withdrawals: the period, [from, to) in Unix seconds, by settlement time. */
export class CreateWithdrawalReportRequest {
  @ApiProperty({ type: 'integer', description: 'Start of the period (Unix seconds, inclusive)', example: 1793491200 })
  @IsInt({ message: SECONDS_MESSAGE('from') })
  @Min(0, { message: SECONDS_MESSAGE('from') })
  @Max(4_102_444_800, { message: SECONDS_MESSAGE('from') })
  from!: number;

  @ApiProperty({
    type: 'integer',
    description: 'End of the period (Unix seconds, exclusive); after `from`, not in the future',
    example: 1796083200,
  })
  @IsInt({ message: SECONDS_MESSAGE('to') })
  @Min(0, { message: SECONDS_MESSAGE('to') })
  @Max(4_102_444_800, { message: SECONDS_MESSAGE('to') })
  to!: number;
}

/**
 * withdrawals.command.create-withdrawal-report.v1: a report of the withdrawals settled in the period and in no
 * filed report yet (invalid_request, field `to`, for a period that ends after now or not after its start).
 */
export class CreateWithdrawalReportCommand extends CreateWithdrawalReportRequest {
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

/** The answer of POST /admin/v1/reports/withdrawals. */
export class WithdrawalReportCreated {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: 'integer', description: 'How many withdrawals it holds', example: 1250 })
  withdrawals!: number;
}

/** The body of POST /admin/v1/reports/{id}/filed. */
export class FileWithdrawalReportRequest {
  @ApiProperty({
    description: "The Receita Federal's receipt of the filing (número do recibo)",
    minLength: 1,
    maxLength: 200,
    example: '12.34.56.78.90-12',
  })
  @IsString({ message: 'receipt must be 1 to 200 characters of text' })
  @Length(1, 200, { message: 'receipt must be 1 to 200 characters of text' })
  receipt!: string;
}

/** `{id}` of /admin/v1/reports/{id}. */
export class WithdrawalReportParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'id must be a report id (a UUID)' })
  id!: string;
}

/**
 * withdrawals.command.file-withdrawal-report.v1: the report was filed with the Receita: each of its withdrawals
 * moves settled → reported, once, with its event. Again with the same receipt: the report as filed; with
 * another, or when one of its withdrawals is no longer settled (in another filed report), invalid_transition.
 */
export class FileWithdrawalReportCommand extends FileWithdrawalReportRequest {
  @IsUUID()
  report_id!: string;

  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}

export const REPORT_FORMATS = ['json', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const MAX_REPORT_PAGE = 1000;

/** The query of GET /admin/v1/reports/{id}. */
export class WithdrawalReportQueryRequest {
  @ApiProperty({
    enum: REPORT_FORMATS,
    required: false,
    description: 'json (paged: limit, cursor) or csv (the whole report); default json',
  })
  @IsOptional()
  @IsIn(REPORT_FORMATS, { message: 'format must be json or csv' })
  format?: ReportFormat;

  @ApiProperty({
    type: 'integer',
    required: false,
    minimum: 1,
    maximum: MAX_REPORT_PAGE,
    description: 'json: rows per page (default 1000)',
  })
  @IsOptional()
  @Transform(positiveIntegerString)
  @IsInt({ message: `limit must be an integer from 1 to ${MAX_REPORT_PAGE}` })
  @Min(1, { message: `limit must be an integer from 1 to ${MAX_REPORT_PAGE}` })
  @Max(MAX_REPORT_PAGE, { message: `limit must be an integer from 1 to ${MAX_REPORT_PAGE}` })
  limit?: number;

  @ApiProperty({ type: 'integer', required: false, description: 'json: next_cursor of the page before' })
  @IsOptional()
  @Transform(positiveIntegerString)
  @IsInt({ message: 'cursor must be a next_cursor this API returned' })
  @Min(1, { message: 'cursor must be a next_cursor this API returned' })
  cursor?: number;
}

/** withdrawals.query.withdrawal-report.v1: a page of a report's rows, by withdrawal id (not_found). */
export class WithdrawalReportQuery {
  @IsUUID()
  report_id!: string;

  @IsInt()
  @Min(0)
  after!: number;

  @IsInt()
  @Min(1)
  @Max(MAX_REPORT_PAGE)
  limit!: number;
}

/** One withdrawal of a report: what the Receita's report of a crypto-asset operation asks, as far as the service knows it. */
export class WithdrawalReportRow {
  @ApiProperty({ type: 'integer' }) withdrawal_id!: number;
  @ApiProperty({ description: 'When it settled (ISO 8601, UTC): the date of the operation' }) settled_at!: string;
  @ApiProperty({ format: 'uuid' }) partner_id!: string;
  @ApiProperty({ description: "The user's CPF" }) document!: string;
  @ApiProperty({ example: 'USDT' }) asset!: string;
  @ApiProperty({ example: 'MATIC' }) network!: string;
  @ApiProperty({ type: 'integer', description: 'Amount, USDT micros' }) usdt_micros!: number;
  @ApiProperty({ type: 'integer', description: 'Fee charged, USDT micros' }) fee_usdt_micros!: number;
  @ApiProperty({ description: 'The destination address' }) destination!: string;
  @ApiProperty({ description: 'The transaction mined' }) tx_hash!: string;
  @ApiProperty({
    ...NULLABLE_BENEFICIARY_SCHEMA,
    description: 'The owner of the destination (self-hosted or at a VASP), as the withdrawal named it; null when it named none',
  })
  beneficiary!: Beneficiary | null;
}

/** A report as GET /admin/v1/reports/{id}?format=json answers it: its summary and a page of its rows. */
export class WithdrawalReportPage {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer', description: 'Unix seconds, inclusive' }) from!: number;
  @ApiProperty({ type: 'integer', description: 'Unix seconds, exclusive' }) to!: number;
  @ApiProperty({ type: 'integer' }) created_at!: number;
  @ApiProperty() created_by!: string;
  @ApiProperty({ type: 'integer' }) withdrawals!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'When it was marked filed; null: not yet' }) filed_at!: number | null;
  @ApiProperty({ type: String, nullable: true }) filed_by!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The Receita's receipt" }) receipt!: string | null;
  @ApiProperty({
    type: [String],
    description: 'What the Receita asks of each operation that the rows do not carry (docs/operations/reports.md)',
    example: ['brl_value', 'brl_fee'],
  })
  lacks!: string[];
  @ApiProperty({ type: [WithdrawalReportRow] }) rows!: WithdrawalReportRow[];
  @ApiProperty({ type: 'integer', nullable: true, description: 'Pass as cursor for the next page; null on the last' }) next_cursor!:
    number | null;
}
