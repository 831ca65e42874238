import { IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { ApiProperty } from '../../api-documentation';
import { UnixSeconds } from '../../feed/unix-seconds.property';

/**
 * A refund's statuses (docs/api.md: "Refunds"): `created` (debited from the user's BRL balance, not yet
 * accepted by the Pix provider), `processing` (accepted: the return is on its way to the payer), `success`
 * (returned: final), `failed` (not returned, the amount credited back to the balance: final).
 */
export const PIX_IN_REFUND_STATUSES = ['created', 'processing', 'success', 'failed'] as const;
export type PixInRefundStatus = (typeof PIX_IN_REFUND_STATUSES)[number];

/** The Pix API's limit on a devolução's `descricao` (pacs.004 RemittanceInformation): the refund's reason goes there. */
export const MAX_REFUND_REASON_LENGTH = 140;

/** A refund as the partner reads it (GET /partner/v1/pix-in/{end_to_end_id}, and the data of pix_in_refund events). */
export class PixInRefundView {
  @ApiProperty({ type: 'integer', description: "The refund's id; its events carry it as resource_id", example: 7 })
  @IsInt()
  id!: number;

  @ApiProperty({ description: 'The inflow it returns', example: 'E60701190202611220316ChEFWNP0TTY' })
  @IsString()
  end_to_end_id!: string;

  @ApiProperty({ type: 'integer', description: 'Cents of BRL returned to the payer', example: 2_000 })
  @IsInt()
  amount_cents!: number;

  @ApiProperty({ description: 'Why, as sent to the payer with the return', example: 'order cancelled' })
  @IsString()
  reason!: string;

  @ApiProperty({ enum: PIX_IN_REFUND_STATUSES })
  @IsIn(PIX_IN_REFUND_STATUSES)
  status!: PixInRefundStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "Why it failed (the provider's words, or ours); null unless failed",
    example: null,
  })
  @IsOptional()
  @IsString()
  failure_reason!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The return's id in the Pix network (pacs.004 RtrId), once the provider gives it",
    example: 'D60701190202611220316ChEFWNP0TTY',
  })
  @IsOptional()
  @IsString()
  return_id!: string | null;

  @UnixSeconds()
  created_at!: number;

  @UnixSeconds()
  last_updated_at!: number;
}
