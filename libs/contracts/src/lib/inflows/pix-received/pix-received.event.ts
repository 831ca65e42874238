import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Matches, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PIX_IN_METHODS, PixInMethod, SENDER_ACCOUNT_TYPES, SenderAccountType } from '../pix-in.types';
import { SIMULATED_PIX_IN_OUTCOMES, SimulatedPixInOutcome } from '../simulate-pix-in/simulate-pix-in.command';

/**
 * What the (simulated) Pix network announces for a payment to one of our users. Not a feed event: the
 * inflows service records it and reports its own pix_in events.
 */
export class PixReceivedEvent {
  @IsUUID()
  partner_id!: string;

  @IsCpf()
  document!: string;

  /** `E` + payer ISPB (8 digits) + UTC yyyyMMddHHmm + 11 alphanumerics: 32 characters. */
  @Matches(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/)
  end_to_end_id!: string;

  @IsInt() @Min(1)
  amount_cents!: number;

  @IsIn(PIX_IN_METHODS)
  method!: PixInMethod;

  @IsOptional() @IsString()
  description?: string;

  @IsString() sender_name!: string;
  @IsString() sender_tax_id!: string;
  @IsString() sender_account_number!: string;
  @IsIn(SENDER_ACCOUNT_TYPES) sender_account_type!: SenderAccountType;
  @Matches(/^\d{8}$/) sender_bank_code!: string;
  @Matches(/^\d{1,4}$/) sender_branch_code!: string;

  @IsIn(SIMULATED_PIX_IN_OUTCOMES)
  outcome!: SimulatedPixInOutcome;

  @IsISO8601({ strict: true })
  sent_at!: string;
}
