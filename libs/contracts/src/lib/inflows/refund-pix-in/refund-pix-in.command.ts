import { IsInt, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { ApiProperty } from '../../api-documentation';
import { codesOf } from '../../error-codes';
import { PartnerId } from '../../tenancy/partner-id';
import { END_TO_END_ID_PATTERN } from '../pix-in.validators';
import { MAX_PIX_IN_CENTS } from '../simulate-pix-in/simulate-pix-in.command';
import { MAX_REFUND_REASON_LENGTH, PIX_IN_REFUND_STATUSES, PixInRefundStatus } from './pix-in-refund.types';

const code = codesOf('pix_inflows');
const amountMessage = `amount_cents must be an integer number of cents from 1 to ${MAX_PIX_IN_CENTS}`;

/** The path of POST /partner/v1/pix-in/{end_to_end_id}/refunds and GET /partner/v1/pix-in/{end_to_end_id}. */
export class PixInflowParams {
  @ApiProperty({ description: "The inflow's SPI end-to-end id", example: 'E60701190202611220316ChEFWNP0TTY' })
  @Matches(END_TO_END_ID_PATTERN, { message: 'end_to_end_id must be an SPI end-to-end id (E + ISPB + yyyyMMddHHmm + 11 alphanumerics)' })
  end_to_end_id!: string;
}

/** Body of POST /partner/v1/pix-in/{end_to_end_id}/refunds (docs/api.md: "Refunds"). First failing field in this order. */
export class RefundPixInRequest {
  @ApiProperty({ description: 'Unique per refund; a replay answers the first refund', format: 'uuid' })
  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PIX_IN_CENTS,
    description: "Cents of BRL to return; the inflow's refunds together never exceed its amount",
    example: 2_000,
  })
  @IsInt(code('invalid_amount', amountMessage))
  @Min(1, code('invalid_amount', amountMessage))
  @Max(MAX_PIX_IN_CENTS, code('invalid_amount', amountMessage))
  amount_cents!: number;

  @ApiProperty({
    minLength: 1,
    maxLength: MAX_REFUND_REASON_LENGTH,
    description: 'Why; sent to the payer with the return (the devolução\'s "descricao")',
    example: 'order cancelled',
  })
  @IsString({ message: 'reason must be a string' })
  @Length(1, MAX_REFUND_REASON_LENGTH, { message: `reason must be 1 to ${MAX_REFUND_REASON_LENGTH} characters` })
  reason!: string;
}

/**
 * inflows.command.refund-pix-in.v1: the partner returns part or all of a credited inflow to its payer. The
 * amount leaves the user's BRL balance at once, with the refund and its event, in one transaction.
 */
export class RefundPixInCommand extends RefundPixInRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @Matches(END_TO_END_ID_PATTERN)
  end_to_end_id!: string;
}

/** `created` is false when the idempotency key was used before with the same request (HTTP 200). */
export interface RefundPixInResult {
  id: number;
  status: PixInRefundStatus;
  created: boolean;
}

/** The HTTP answer of POST /partner/v1/pix-in/{end_to_end_id}/refunds, 201 and 200 alike. */
export class RefundPixInResponse {
  @ApiProperty({ type: 'integer', description: "The refund's id; its pix_in_refund events carry it as resource_id", example: 7 })
  id!: number;

  @ApiProperty({ enum: PIX_IN_REFUND_STATUSES, description: 'Its status now (created when new)', example: 'created' })
  status!: PixInRefundStatus;
}
