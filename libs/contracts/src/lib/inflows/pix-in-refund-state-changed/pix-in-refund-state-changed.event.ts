import { Type } from 'class-transformer';
import { Equals, IsIn, ValidateNested } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { ApiProperty } from '../../api-documentation';
import { FeedEvent } from '../../feed/feed-event.event';
import { PIX_IN_REFUND_STATUSES, PixInRefundStatus, PixInRefundView } from '../refund-pix-in/pix-in-refund.types';

/** The refund inside a pix_in_refund event: as the inflow's read-back lists it, plus the user's CPF. */
export class PixInRefundSnapshot extends PixInRefundView {
  @ApiProperty({ description: "The user's CPF (whose balance it left)", example: '44056866023' })
  @IsCpf()
  document!: string;
}

/** inflows.event.refund-state-changed.v1: a refund reached a status (resource_id: the refund's id). */
export class PixInRefundStateChangedEvent extends FeedEvent<PixInRefundSnapshot> {
  @Equals('pix_in_refund')
  override type!: 'pix_in_refund';

  @IsIn(PIX_IN_REFUND_STATUSES)
  override state!: PixInRefundStatus;

  @ValidateNested()
  @Type(() => PixInRefundSnapshot)
  override resource!: PixInRefundSnapshot;
}
