import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { Equals, IsIn, ValidateNested } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { FeedEvent } from '../../feed/feed-event.event';
import { PIX_IN_STATUSES, PixInflow, PixInStatus } from '../pix-in.types';

/** The inflow inside a pix_in event: the fields of docs/api.md "Pix inflows", plus the receiving user's CPF. */
export class PixInSnapshot extends PixInflow {
  @ApiProperty({ description: "The receiving user's CPF", example: '44056866023' })
  @IsCpf()
  document!: string;
}

export class PixInStateChangedEvent extends FeedEvent<PixInSnapshot> {
  @Equals('pix_in')
  override type!: 'pix_in';

  @IsIn(PIX_IN_STATUSES)
  override state!: PixInStatus;

  @ValidateNested()
  @Type(() => PixInSnapshot)
  override resource!: PixInSnapshot;
}
