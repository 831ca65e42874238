import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PIX_IN_METHODS, PixInMethod, SENDER_ACCOUNT_TYPES, SenderAccountType } from '../pix-in.types';

/** Outcomes the sandbox can ask the simulated network for (README: Sandbox). */
export const SIMULATED_PIX_IN_OUTCOMES = ['credited', 'denied', 'failed'] as const;
export type SimulatedPixInOutcome = (typeof SIMULATED_PIX_IN_OUTCOMES)[number];

/**
 * Body of POST /sandbox/v1/pix-in: an incoming Pix to one of the partner's users. Sender fields left out
 * are made up (a valid CPF or CNPJ, a real ISPB); `method` defaults to `manual`.
 */
export class SandboxPixInRequest {
  @ApiProperty({ example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ minimum: 1, example: 15_000 })
  @IsInt({ message: 'amount_cents must be an integer number of cents' })
  @Min(1, { message: 'amount_cents must be at least 1' })
  @Max(100_000_000_00, { message: 'amount_cents must be at most 10000000000' })
  amount_cents!: number;

  @ApiPropertyOptional({ enum: PIX_IN_METHODS })
  @IsOptional()
  @IsIn(PIX_IN_METHODS, { message: `method must be one of ${PIX_IN_METHODS.join(', ')}` })
  method?: PixInMethod;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(140)
  description?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(120)
  sender_name?: string;

  @ApiPropertyOptional({ description: 'CPF (11 digits) or CNPJ (14 characters)' }) @IsOptional() @IsString()
  sender_tax_id?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(20)
  sender_account_number?: string;

  @ApiPropertyOptional({ enum: SENDER_ACCOUNT_TYPES })
  @IsOptional()
  @IsIn(SENDER_ACCOUNT_TYPES, { message: `sender_account_type must be one of ${SENDER_ACCOUNT_TYPES.join(', ')}` })
  sender_account_type?: SenderAccountType;

  @ApiPropertyOptional({ description: "Sender bank's ISPB, 8 digits" }) @IsOptional() @IsString()
  sender_bank_code?: string;

  @ApiPropertyOptional() @IsOptional() @IsString()
  sender_branch_code?: string;

  @ApiPropertyOptional({ enum: SIMULATED_PIX_IN_OUTCOMES, default: 'credited' })
  @IsOptional()
  @IsIn(SIMULATED_PIX_IN_OUTCOMES, { message: `simulate_outcome must be one of ${SIMULATED_PIX_IN_OUTCOMES.join(', ')}` })
  simulate_outcome?: SimulatedPixInOutcome;
}

export class SimulatePixInCommand extends SandboxPixInRequest {
  @IsUUID()
  partner_id!: string;
}

export interface SimulatePixInResult {
  end_to_end_id: string;
}
