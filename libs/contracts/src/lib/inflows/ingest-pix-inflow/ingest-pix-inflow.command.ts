import { ApiProperty, ApiPropertyOptional, PickType } from '../../api-documentation';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';
import {
  PIX_IN_METHODS,
  PIX_IN_NOTIFIED_STATUSES,
  PIX_IN_STATUSES,
  PixInMethod,
  PixInNotifiedStatus,
  PixInStatus,
  SENDER_ACCOUNT_TYPES,
  SenderAccountType,
} from '../pix-in.types';
import {
  ACCOUNT_NUMBER_PATTERN,
  BRANCH_CODE_PATTERN,
  END_TO_END_ID_PATTERN,
  IsCpfOrCnpj,
  IsPixKey,
  ISPB_PATTERN,
  MAX_PIX_KEY_LENGTH,
} from '../pix-in.validators';
import { SandboxPixInRequest } from '../simulate-pix-in/simulate-pix-in.command';
import { ACCOUNT_TYPES, AccountType } from '../../users/upsert-user/upsert-user.command';

/** A receiving account's branch as the SPI carries it: 4 digits. */
export const RECEIVER_BRANCH_PATTERN = /^\d{4}$/;

/**
 * The account a Pix was paid into, as an SPI credit transfer (pacs.008) names it: the creditor's
 * institution (`CdtrAgt`, its ISPB) and account (`CdtrAcct`: branch, number, type as DICT codes it).
 */
export class ReceiverAccount {
  @ApiProperty({ description: "The receiving institution's ISPB, 8 digits: ours (OPERATOR_ISPB)", example: '99999999' })
  @Matches(ISPB_PATTERN, { message: 'ispb must be an ISPB of 8 digits' })
  ispb!: string;

  @ApiProperty({ description: 'Branch (agência), 4 digits', example: '0001' })
  @Matches(RECEIVER_BRANCH_PATTERN, { message: 'branch must be 4 digits' })
  branch!: string;

  @ApiProperty({ description: 'Account number, digits only, its check digit last (no dash), up to 20', example: '100000002' })
  @Matches(ACCOUNT_NUMBER_PATTERN, { message: 'number must be 1 to 20 digits' })
  number!: string;

  @ApiProperty({
    enum: ACCOUNT_TYPES,
    description: 'CACC checking, SVGS savings, TRAN payment account (every user account here), SLRY salary',
    example: 'TRAN',
  })
  @IsIn(ACCOUNT_TYPES, { message: `type must be one of ${ACCOUNT_TYPES.join(', ')}` })
  type!: AccountType;
}

/**
 * Body of POST /provider/v2/pix/inflows (docs/api.md: "Pix provider ingestion"), and the command
 * `inflows.command.ingest.v2` as is: the Pix provider says an inflow is at `status`. It names who receives
 * it as an SPI credit notification does: the receiving account (`receiver_account`) and, for a Pix sent by
 * key (`method: dict`), the key (`receiver_key`); never our partner or user ids, which the inflows service
 * finds from the account. The first notification of an end_to_end_id records the inflow (or keeps it aside
 * when no user has that account); later ones move it along the transition table. The amount and the
 * description have the sandbox Pix's rules (SandboxPixInRequest). First failing field in this order.
 */
export class IngestPixInflowCommand extends PickType(SandboxPixInRequest, ['amount_cents', 'description'] as const) {
  @ApiProperty({ description: 'SPI end-to-end id, 32 characters', example: 'E60701190202611220316ChEFWNP0TTY' })
  @Matches(END_TO_END_ID_PATTERN, { message: 'end_to_end_id must be an SPI end-to-end id (E + ISPB + yyyyMMddHHmm + 11 alphanumerics)' })
  end_to_end_id!: string;

  @ApiProperty({ enum: PIX_IN_METHODS })
  @IsIn(PIX_IN_METHODS, { message: `method must be one of ${PIX_IN_METHODS.join(', ')}` })
  method!: PixInMethod;

  @ApiProperty({ type: () => ReceiverAccount, description: 'The account the Pix was paid into (CdtrAgt + CdtrAcct)' })
  @IsObject({ message: 'receiver_account must be an object {ispb, branch, number, type}' })
  @ValidateNested()
  @Type(() => ReceiverAccount)
  receiver_account!: ReceiverAccount;

  @ApiPropertyOptional({
    maxLength: MAX_PIX_KEY_LENGTH,
    description:
      'The Pix key the payer used: required with method dict, optional otherwise (QR codes carry one). A CPF, CNPJ, E.164 phone, lower-case e-mail or random key (UUID)',
    example: '52998224725',
  })
  @ValidateIf((n: IngestPixInflowCommand) => n.method === 'dict' || n.receiver_key !== undefined)
  @IsPixKey()
  receiver_key?: string;

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

  @ApiProperty({ enum: PIX_IN_NOTIFIED_STATUSES, description: 'The status the provider reports the inflow at' })
  @IsIn(PIX_IN_NOTIFIED_STATUSES, { message: `status must be one of ${PIX_IN_NOTIFIED_STATUSES.join(', ')}` })
  status!: PixInNotifiedStatus;
}

/**
 * The answer: the inflow's status after the notification, whether this notification recorded it (201) or
 * not (200), and whether it reached a user (`matched`; false: no user has the receiving account, the inflow
 * is kept aside for the operator, 202).
 */
export class IngestPixInflowResult {
  @ApiProperty({ example: 'E60701190202611220316ChEFWNP0TTY' })
  end_to_end_id!: string;

  @ApiProperty({ enum: PIX_IN_STATUSES, description: "The inflow's current status" })
  status!: PixInStatus;

  @ApiProperty({ description: 'True when this notification recorded the inflow (HTTP 201, or 202 when kept aside)' })
  created!: boolean;

  @ApiProperty({
    description:
      "True when the receiving account is a user's (the inflow is theirs); false when no user has it: the inflow is kept aside for the operator (GET /admin/v1/unmatched-pix-inflows), credited to no one (HTTP 202)",
  })
  matched!: boolean;
}
