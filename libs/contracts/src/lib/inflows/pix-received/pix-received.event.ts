import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PIX_IN_METHODS, PixInMethod, SENDER_ACCOUNT_TYPES, SenderAccountType } from '../pix-in.types';
import { ACCOUNT_NUMBER_PATTERN, BRANCH_CODE_PATTERN, END_TO_END_ID_PATTERN, IsCpfOrCnpj, ISPB_PATTERN } from '../pix-in.validators';
import { MAX_PIX_IN_CENTS, SIMULATED_PIX_IN_OUTCOMES, SimulatedPixInOutcome } from '../simulate-pix-in/simulate-pix-in.command';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * What the (simulated) Pix network announces for a payment to one of our users. Not a feed event: the
 * inflows service records it, once per end_to_end_id, and reports its own pix_in events. Every sender
 * field is filled in by the network.
 */
export class PixReceivedEvent {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;

  /** `E` + payer ISPB (8 digits) + UTC yyyyMMddHHmm + 11 alphanumerics: 32 characters. */
  @Matches(END_TO_END_ID_PATTERN)
  end_to_end_id!: string;

  @IsInt()
  @Min(1)
  @Max(MAX_PIX_IN_CENTS)
  amount_cents!: number;

  @IsIn(PIX_IN_METHODS)
  method!: PixInMethod;

  @IsOptional()
  @IsString()
  @Length(1, 140)
  description?: string;

  @IsString() @Length(1, 120) sender_name!: string;
  @IsCpfOrCnpj() sender_tax_id!: string;
  @Matches(ACCOUNT_NUMBER_PATTERN) sender_account_number!: string;
  @IsIn(SENDER_ACCOUNT_TYPES) sender_account_type!: SenderAccountType;
  @Matches(ISPB_PATTERN) sender_bank_code!: string;
  @Matches(BRANCH_CODE_PATTERN) sender_branch_code!: string;

  /** Sandbox only: how the settlement of this payment is to end. */
  @IsIn(SIMULATED_PIX_IN_OUTCOMES)
  outcome!: SimulatedPixInOutcome;

  /** When the payer's institution sent it (the minute in end_to_end_id). */
  @IsISO8601({ strict: true })
  sent_at!: string;
}
