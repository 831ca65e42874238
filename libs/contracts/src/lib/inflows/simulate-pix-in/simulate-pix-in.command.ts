import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PIX_IN_METHODS, PixInMethod, SENDER_ACCOUNT_TYPES, SenderAccountType } from '../pix-in.types';
import { ACCOUNT_NUMBER_PATTERN, BRANCH_CODE_PATTERN, IsCpfOrCnpj, ISPB_PATTERN } from '../pix-in.validators';
import { PartnerId } from '../../tenancy/partner-id';

/** Outcomes the sandbox can ask the simulated network for (docs/api.md: "Sandbox"). */
export const SIMULATED_PIX_IN_OUTCOMES = ['credited', 'denied', 'failed'] as const;
export type SimulatedPixInOutcome = (typeof SIMULATED_PIX_IN_OUTCOMES)[number];

/** Bounds of a simulated Pix, in cents: R$ 0.01 to R$ 100,000,000.00. */
export const MAX_PIX_IN_CENTS = 10_000_000_000;

/**
 * Body of POST /sandbox/v1/pix-in: an incoming Pix to one of the partner's users. Sender fields left out
 * are made up (a valid CPF or CNPJ, a real ISPB); `method` defaults to `manual`. Validated with the same
 * rules in the gateway and in the simulated network, first failing field in this order.
 */
export class SandboxPixInRequest {
  @ApiProperty({ example: '52998224725', description: "The receiving user's CPF" })
  @IsCpf()
  document!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_PIX_IN_CENTS, example: 15_000 })
  @IsInt({ message: 'amount_cents must be an integer number of cents' })
  @Min(1, { message: 'amount_cents must be at least 1' })
  @Max(MAX_PIX_IN_CENTS, { message: `amount_cents must be at most ${MAX_PIX_IN_CENTS}` })
  amount_cents!: number;

  @ApiPropertyOptional({ enum: PIX_IN_METHODS, default: 'manual', description: '`dict` needs a registered Pix key of the user' })
  @IsOptional()
  @IsIn(PIX_IN_METHODS, { message: `method must be one of ${PIX_IN_METHODS.join(', ')}` })
  method?: PixInMethod;

  @ApiPropertyOptional({ maxLength: 140 })
  @IsOptional()
  @IsString()
  @Length(1, 140, { message: 'description must be 1 to 140 characters' })
  description?: string;

  @ApiPropertyOptional({ maxLength: 120 })
  @IsOptional()
  @IsString()
  @Length(1, 120, { message: 'sender_name must be 1 to 120 characters' })
  sender_name?: string;

  @ApiPropertyOptional({ description: 'CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric), no mask' })
  @IsOptional()
  @IsCpfOrCnpj()
  sender_tax_id?: string;

  @ApiPropertyOptional({ description: 'Digits only, check digit included, up to 20' })
  @IsOptional()
  @Matches(ACCOUNT_NUMBER_PATTERN, { message: 'sender_account_number must be 1 to 20 digits' })
  sender_account_number?: string;

  @ApiPropertyOptional({ enum: SENDER_ACCOUNT_TYPES })
  @IsOptional()
  @IsIn(SENDER_ACCOUNT_TYPES, { message: `sender_account_type must be one of ${SENDER_ACCOUNT_TYPES.join(', ')}` })
  sender_account_type?: SenderAccountType;

  @ApiPropertyOptional({ description: "Sender bank's ISPB, 8 digits", example: '60701190' })
  @IsOptional()
  @Matches(ISPB_PATTERN, { message: 'sender_bank_code must be an ISPB of 8 digits' })
  sender_bank_code?: string;

  @ApiPropertyOptional({ description: '1 to 4 digits', example: '0001' })
  @IsOptional()
  @Matches(BRANCH_CODE_PATTERN, { message: 'sender_branch_code must be 1 to 4 digits' })
  sender_branch_code?: string;

  @ApiPropertyOptional({
    enum: SIMULATED_PIX_IN_OUTCOMES,
    default: 'credited',
    description:
      'How the settlement ends: credited (processing, approved, success, credited), denied (processing, denied) or failed (processing, approved, failed)',
  })
  @IsOptional()
  @IsIn(SIMULATED_PIX_IN_OUTCOMES, { message: `simulate_outcome must be one of ${SIMULATED_PIX_IN_OUTCOMES.join(', ')}` })
  simulate_outcome?: SimulatedPixInOutcome;

  @ApiPropertyOptional({
    format: 'uuid',
    example: '9b2f6c1e-3d4a-4e5f-8a6b-7c8d9e0f1a2b',
    description:
      'Scoped to the partner. The same key with the same request answers the first payment again (one payment, one inflow); with another request, 422 idempotency_key_reused. Without a key each call sends a payment.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key?: string;
}

export class SimulatePixInCommand extends SandboxPixInRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/** The reply of the simulated Pix network, and the HTTP answer of POST /sandbox/v1/pix-in (202). */
export class SimulatePixInResult {
  @ApiProperty({ description: 'SPI end-to-end id of the payment sent', example: 'E60701190202611220316ChEFWNP0TTY' })
  end_to_end_id!: string;
}
