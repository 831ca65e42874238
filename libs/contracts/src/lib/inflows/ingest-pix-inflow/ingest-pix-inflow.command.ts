import { ApiProperty, PickType } from '../../api-documentation';
import { IsIn, IsString, IsUUID, Length, Matches } from 'class-validator';
import { PIX_IN_METHODS, PIX_IN_STATUSES, PixInMethod, PixInStatus, SENDER_ACCOUNT_TYPES, SenderAccountType } from '../pix-in.types';
import { ACCOUNT_NUMBER_PATTERN, BRANCH_CODE_PATTERN, END_TO_END_ID_PATTERN, IsCpfOrCnpj, ISPB_PATTERN } from '../pix-in.validators';
import { SandboxPixInRequest } from '../simulate-pix-in/simulate-pix-in.command';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * Body of POST /provider/v1/pix/inflows (docs/api.md: "Pix provider ingestion"), and the command
 * `inflows.command.ingest.v1` as is: the Pix provider says an inflow to one of our users is at `status`.
 * The first notification of an end_to_end_id records the inflow; later ones move it along the
 * transition table. Who receives it: the partner and the user's CPF (the receiving account). The
 * receiver's CPF, the amount and the description have the sandbox Pix's rules (SandboxPixInRequest).
 */
export class IngestPixInflowCommand extends PickType(SandboxPixInRequest, ['document', 'amount_cents', 'description'] as const) {
  @ApiProperty({ type: String, format: 'uuid', description: 'The receiving partner' })
  @IsUUID('all', { message: 'partner_id must be a UUID' })
  partner_id!: PartnerId;

  @ApiProperty({ description: 'SPI end-to-end id, 32 characters', example: 'E60701190202611220316ChEFWNP0TTY' })
  @Matches(END_TO_END_ID_PATTERN, { message: 'end_to_end_id must be an SPI end-to-end id (E + ISPB + yyyyMMddHHmm + 11 alphanumerics)' })
  end_to_end_id!: string;

  @ApiProperty({ enum: PIX_IN_METHODS })
  @IsIn(PIX_IN_METHODS, { message: `method must be one of ${PIX_IN_METHODS.join(', ')}` })
  method!: PixInMethod;

  @ApiProperty({ maxLength: 120 })
  @IsString({ message: 'sender_name must be 1 to 120 characters' })
  @Length(1, 120, { message: 'sender_name must be 1 to 120 characters' })
  sender_name!: string;

  @ApiProperty({ description: 'CPF (11 digits) or CNPJ (14 characters), no mask' })
  @IsCpfOrCnpj()
  sender_tax_id!: string;

  @ApiProperty({ description: 'Digits only, check digit included, up to 20' })
  @Matches(ACCOUNT_NUMBER_PATTERN, { message: 'sender_account_number must be 1 to 20 digits' })
  sender_account_number!: string;

  @ApiProperty({ enum: SENDER_ACCOUNT_TYPES })
  @IsIn(SENDER_ACCOUNT_TYPES, { message: `sender_account_type must be one of ${SENDER_ACCOUNT_TYPES.join(', ')}` })
  sender_account_type!: SenderAccountType;

  @ApiProperty({ description: "Sender bank's ISPB, 8 digits", example: '60701190' })
  @Matches(ISPB_PATTERN, { message: 'sender_bank_code must be an ISPB of 8 digits' })
  sender_bank_code!: string;

  @ApiProperty({ description: '1 to 4 digits', example: '0001' })
  @Matches(BRANCH_CODE_PATTERN, { message: 'sender_branch_code must be 1 to 4 digits' })
  sender_branch_code!: string;

  @ApiProperty({ enum: PIX_IN_STATUSES, description: 'The status the provider reports the inflow at' })
  @IsIn(PIX_IN_STATUSES, { message: `status must be one of ${PIX_IN_STATUSES.join(', ')}` })
  status!: PixInStatus;
}

/** The answer: the inflow's status after the notification, and whether this notification recorded it (201) or not (200). */
export class IngestPixInflowResult {
  @ApiProperty({ example: 'E60701190202611220316ChEFWNP0TTY' })
  end_to_end_id!: string;

  @ApiProperty({ enum: PIX_IN_STATUSES, description: "The inflow's current status" })
  status!: PixInStatus;

  @ApiProperty({ description: 'True when this notification recorded the inflow (HTTP 201)' })
  created!: boolean;
}
