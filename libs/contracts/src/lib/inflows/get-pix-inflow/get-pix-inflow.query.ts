import { Type } from 'class-transformer';
import { IsUUID } from 'class-validator';
import { ApiProperty } from '../../api-documentation';
import { PartnerId } from '../../tenancy/partner-id';
import { PixInflow } from '../pix-in.types';
import { PixInRefundView } from '../refund-pix-in/pix-in-refund.types';
import { PixInflowParams } from '../refund-pix-in/refund-pix-in.command';

/** inflows.query.get.v1: one of the partner's inflows with its refunds (another partner's is not_found, like a missing one). */
export class GetPixInflowQuery extends PixInflowParams {
  @IsUUID()
  partner_id!: PartnerId;
}

/** GET /partner/v1/pix-in/{end_to_end_id}: the inflow as the list shows it, then what was refunded of it and each refund. */
export class PixInflowDetail extends PixInflow {
  @ApiProperty({
    type: 'integer',
    description: 'Cents of its refunds not failed (created, processing or returned): at most amount_cents',
    example: 2_000,
  })
  refunded_cents!: number;

  @ApiProperty({ type: 'integer', description: 'Cents its refunds returned (success)', example: 0 })
  returned_cents!: number;

  @ApiProperty({ type: () => [PixInRefundView], description: 'Its refunds, oldest first' })
  @Type(() => PixInRefundView)
  refunds!: PixInRefundView[];
}
