import { ApiProperty, ApiPropertyOptional } from '../api-documentation';
import { IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { UnixSeconds } from '../feed/unix-seconds.property';

/** Spec 2.4 value sets. */
export const PIX_IN_METHODS = ['manual', 'dict', 'static_qr_code', 'dynamic_qr_code', 'payer_qr_code', 'initiator'] as const;
export type PixInMethod = (typeof PIX_IN_METHODS)[number];

export const SENDER_ACCOUNT_TYPES = ['checking', 'savings', 'payment', 'salary'] as const;
export type SenderAccountType = (typeof SENDER_ACCOUNT_TYPES)[number];

/** The statuses the Pix provider notifies (spec 2.4's): how an inflow settles. */
export const PIX_IN_NOTIFIED_STATUSES = ['processing', 'approved', 'denied', 'success', 'credited', 'failed'] as const;
export type PixInNotifiedStatus = (typeof PIX_IN_NOTIFIED_STATUSES)[number];

/**
 * An inflow's statuses: the notified ones, then, once credited, `blocked` while a MED case holds its funds
 * (docs/api.md "MED"), and what refunds and MED returns gave back (`partially_returned`, `returned`): extensions.
 */
export const PIX_IN_STATUSES = [...PIX_IN_NOTIFIED_STATUSES, 'blocked', 'partially_returned', 'returned'] as const;
export type PixInStatus = (typeof PIX_IN_STATUSES)[number];

/** A Pix inflow exactly as docs/api.md ("Pix inflows") lists it (GET /partner/v1/pix-in, and the data of pix_in events). */
export class PixInflow {
  @ApiProperty({ type: 'integer', description: 'Cents of BRL', example: 12_345 })
  @IsInt()
  amount_cents!: number;

  @ApiPropertyOptional({ description: "The payer's message; left out (never null) when there is none", example: 'pizza' })
  @IsOptional()
  @IsString()
  description?: string;

  @ApiProperty({ description: 'SPI end-to-end id, 32 characters', example: 'E60701190202611220316ChEFWNP0TTY' })
  @IsString()
  end_to_end_id!: string;

  @ApiProperty({ enum: PIX_IN_METHODS })
  @IsIn(PIX_IN_METHODS)
  method!: PixInMethod;

  @ApiProperty({ example: 'Santos Consultoria Eireli' })
  @IsString()
  sender_name!: string;

  @ApiProperty({ description: 'CPF (11 digits) or CNPJ (14 characters), unformatted', example: '64172365840508' })
  @IsString()
  sender_tax_id!: string;

  @ApiProperty({ description: '1-20 digits', example: '342637198' })
  @IsString()
  sender_account_number!: string;

  @ApiProperty({ enum: SENDER_ACCOUNT_TYPES })
  @IsIn(SENDER_ACCOUNT_TYPES)
  sender_account_type!: SenderAccountType;

  @ApiProperty({ description: 'ISPB, 8 digits', example: '60701190' })
  @IsString()
  sender_bank_code!: string;

  @ApiProperty({ description: '1-4 digits', example: '0566' })
  @IsString()
  sender_branch_code!: string;

  @UnixSeconds()
  created_at!: number;

  @UnixSeconds()
  last_updated_at!: number;

  @ApiProperty({ enum: PIX_IN_STATUSES })
  @IsIn(PIX_IN_STATUSES)
  status!: PixInStatus;
}
