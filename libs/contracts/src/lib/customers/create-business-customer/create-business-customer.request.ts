import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
  validateSync,
  ValidationOptions,
} from 'class-validator';
import { IsCnpj, IsCpf, IsE164Phone, IsPastCalendarDate, isJsonObjectWithin } from '@partner/validation';
import { codesOf } from '../../error-codes';

// Re-exported here so that the package index, shared by every feature, need not change.
export { BUSINESS_CUSTOMER_EXAMPLE } from './business-customer.example';

/** The 26 states and the Federal District (UF codes). */
export const BRAZILIAN_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;
export type BrazilianState = (typeof BRAZILIAN_STATES)[number];

export const OWNER_TYPES = ['partner', 'representative', 'other_partner'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

export const OWNERSHIP_TYPES = ['direct', 'indirect'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

/** 100% in basis points: one owner's share is at most this (from 1, or 0 for a representative), and all owners' together too. */
export const FULL_OWNERSHIP_BPS = 10_000;
/** Owners per customer: a business lists its partners and representatives, never hundreds. */
export const MAX_OWNERS = 20;
/** Birth dates before this are taken for typos. */
export const EARLIEST_BIRTH_DATE = '1900-01-01';
/** Free-form metadata is stored and echoed in events as given, so its JSON text is bounded. */
export const MAX_METADATA_BYTES = 4096;
export const MAX_EXTERNAL_ID_LENGTH = 128;

const businessCustomersCode = codesOf('business_customers');
const INVALID_CNPJ = businessCustomersCode('invalid_cnpj');
const INVALID_PHONE = businessCustomersCode('invalid_phone');
const INVALID_OWNER = businessCustomersCode(
  'invalid_owner',
  'document is invalid: the owner CPF must be 11 digits with valid check digits',
);

/**
 * A CEP: 8 digits, unformatted. The ranges begin at 01000-000 (São Paulo); no place has a CEP starting
 * with 00, so `00000000`, a common placeholder for "unknown", is refused rather than stored as an address.
 */
const CEP_PATTERN = /^(?!00)\d{8}$/;
const CEP_MESSAGE = 'postal_code must be a CEP: 8 digits, unformatted, from 01000000 (no CEP starts with 00)';

/** Non-blank text of at most `max` characters (one message for every way of failing). */
function Text(max: number): PropertyDecorator {
  const message = {
    message: ({ property }: { property: string }) => `${property} must be a non-blank string of at most ${max} characters`,
  };
  return (target, key) => {
    IsString(message)(target, key);
    Matches(/\S/, message)(target, key);
    MaxLength(max, message)(target, key);
  };
}

function Email(): PropertyDecorator {
  const message = { message: ({ property }: { property: string }) => `${property} must be an e-mail address` };
  return (target, key) => {
    IsEmail({}, message)(target, key);
    MaxLength(254, message)(target, key);
  };
}

/** ISO 3166-1 alpha-2 in upper case (class-validator alone also takes `br`). */
function CountryCode(): PropertyDecorator {
  const message = {
    message: ({ property }: { property: string }) => `${property} must be an ISO 3166-1 alpha-2 country code in upper case, such as BR`,
  };
  return (target, key) => {
    IsISO31661Alpha2(message)(target, key);
    Matches(/^[A-Z]{2}$/, message)(target, key);
  };
}

export class CustomerAddress {
  @ApiProperty({ example: 'Avenida Paulista' })
  @Text(200)
  street!: string;

  @ApiProperty({ example: '1578' })
  @Text(20)
  number!: string;

  @ApiPropertyOptional({ example: 'Sala 42' })
  @IsOptional()
  @Text(200)
  complement?: string;

  @ApiProperty({ example: 'Bela Vista' })
  @Text(100)
  neighborhood!: string;

  @ApiProperty({ example: 'São Paulo' })
  @Text(100)
  city!: string;

  @ApiProperty({ enum: BRAZILIAN_STATES, description: 'UF code, upper case' })
  @IsIn(BRAZILIAN_STATES, { message: 'state must be one of the 27 UF codes (AC, AL, ..., SP, SE, TO), upper case' })
  state!: BrazilianState;

  @ApiProperty({ description: 'CEP, 8 digits, unformatted; CEPs begin at 01000000 (none starts with 00)', example: '01310200' })
  @IsString({ message: CEP_MESSAGE })
  @Matches(CEP_PATTERN, { message: CEP_MESSAGE })
  postal_code!: string;
}

function IsOwnershipType(): PropertyDecorator {
  return IsIn(OWNERSHIP_TYPES, { message: `ownership_type must be one of ${OWNERSHIP_TYPES.join(', ')}` });
}

/** A share in basis points: an integer from `min` to 100%. */
function OwnershipBps(min: number, note = ''): PropertyDecorator {
  const message = { message: `ownership_bps must be an integer from ${min} to ${FULL_OWNERSHIP_BPS}${note}` };
  return (target, key) => {
    IsInt(message)(target, key);
    Min(min, message)(target, key);
    Max(FULL_OWNERSHIP_BPS, message)(target, key);
  };
}

/** The ownership of a partner or other partner: they are listed because they own part of it, so at least 1 bps. */
export class OwnerOwnership {
  @ApiProperty({ enum: OWNERSHIP_TYPES })
  @IsOwnershipType()
  ownership_type!: OwnershipType;

  @ApiProperty({
    type: 'integer',
    description: 'Share in basis points (5000 = 50%): 1 to 10000; 0 to 10000 for a representative, who may own nothing',
    minimum: 0,
    maximum: FULL_OWNERSHIP_BPS,
    example: 5000,
  })
  @OwnershipBps(1, ' (only a representative may own 0)')
  ownership_bps!: number;
}

/**
 * The ownership of a representative: someone who acts for the company (a director, an attorney) and
 * may own none of it, so 0 bps is a share too. Chosen by `owner_type` when the body is read (CustomerOwner).
 */
export class RepresentativeOwnership {
  @IsOwnershipType()
  ownership_type!: OwnershipType;

  @OwnershipBps(0)
  ownership_bps!: number;
}

export class CustomerOwner {
  @ApiProperty({ enum: OWNER_TYPES })
  @IsIn(OWNER_TYPES, { message: `owner_type must be one of ${OWNER_TYPES.join(', ')}` })
  owner_type!: OwnerType;

  @ApiProperty({ description: 'Full legal name', example: 'Maria da Silva' })
  @Text(200)
  name!: string;

  @ApiPropertyOptional({ description: 'Social/preferred name' })
  @IsOptional()
  @Text(200)
  social_name?: string;

  @ApiProperty({ description: 'CPF, 11 digits; invalid: 400 invalid_owner', example: '52998224725' })
  @IsCpf(INVALID_OWNER)
  document!: string;

  @ApiProperty({ example: 'maria@example.com' })
  @Email()
  email!: string;

  @ApiProperty({ description: 'E.164; invalid: 400 invalid_phone', example: '+5511987654321' })
  @IsE164Phone(INVALID_PHONE)
  phone!: string;

  @ApiProperty({ description: `YYYY-MM-DD, a real date in the past, from ${EARLIEST_BIRTH_DATE}`, example: '1985-04-12' })
  @IsPastCalendarDate(EARLIEST_BIRTH_DATE)
  birth_date!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2', example: 'BR' })
  @CountryCode()
  nationality_country_code!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2', example: 'BR' })
  @CountryCode()
  tax_residence_country_code!: string;

  @ApiProperty({ type: () => CustomerAddress })
  @IsObject({ message: 'address must be a JSON object' })
  @ValidateNested()
  @Type(() => CustomerAddress)
  address!: CustomerAddress;

  @ApiProperty({ type: () => OwnerOwnership })
  @IsObject({ message: 'ownership must be a JSON object' })
  @ValidateNested()
  // class-transformer hands the type function the owner being read: its owner_type picks the share's rules.
  @Type((read) => (read?.object['owner_type'] === 'representative' ? RepresentativeOwnership : OwnerOwnership))
  ownership!: OwnerOwnership;
}

/** Free-form JSON (docs/api.md: "Business customers"); `external_id` is the key the service reads: stored and echoed in the event. */
export class CustomerMetadata {
  external_id?: string;

  [key: string]: unknown;
}

export class CustomerConfig {
  @ApiPropertyOptional({ description: 'Notify every owner by SMS (simulated)', default: false })
  @IsOptional()
  @IsBoolean({ message: 'auto_send_owner_sms must be true or false' })
  auto_send_owner_sms?: boolean;

  @ApiPropertyOptional({ description: 'Notify every owner by e-mail (simulated)', default: false })
  @IsOptional()
  @IsBoolean({ message: 'auto_send_owner_email must be true or false' })
  auto_send_owner_email?: boolean;
}

/**
 * Cross-owner rule: what the owners own adds up to at most 100% (a representative who owns nothing adds
 * 0). Checked only once every owner is valid on its own, so that an owner's own error (an invalid CPF,
 * a partner's share of 0) is the one reported.
 */
function OwnershipWithinWhole(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'ownershipWithinWhole',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `owners' ownership_bps must add up to at most ${FULL_OWNERSHIP_BPS} (100%)`, ...options },
      validator: {
        validate: (owners: unknown) => {
          if (!Array.isArray(owners)) return true;
          const allValid = owners.every(
            (o) =>
              o instanceof CustomerOwner &&
              validateSync(o, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }).length === 0,
          );
          if (!allValid) return true;
          return (owners as CustomerOwner[]).reduce((sum, o) => sum + o.ownership.ownership_bps, 0) <= FULL_OWNERSHIP_BPS;
        },
      },
    });
}

/** A JSON object of bounded size whose `external_id`, when present, is a non-blank string. */
function IsCustomerMetadata(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCustomerMetadata',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `metadata must be a JSON object of at most ${MAX_METADATA_BYTES} bytes; metadata.external_id, when present, a non-blank string of at most ${MAX_EXTERNAL_ID_LENGTH} characters`,
        ...options,
      },
      validator: {
        validate: (value: unknown) => {
          if (!isJsonObjectWithin(value, MAX_METADATA_BYTES)) return false;
          const externalId = value['external_id'];
          return (
            externalId === undefined ||
            (typeof externalId === 'string' && /\S/.test(externalId) && externalId.length <= MAX_EXTERNAL_ID_LENGTH)
          );
        },
      },
    });
}

/**
 * Body of POST /partner/v1/customers/business (docs/api.md: "Business customers"). Properties are declared
 * in the validation order listed there: when several are wrong, the first one decides the answer (a bad
 * CNPJ wins over a bad phone). The family's own error codes: `invalid_cnpj` (cnpj), `invalid_phone` (phone of the company or of an
 * owner), `invalid_owner` (an owner's CPF); anything else malformed is `invalid_request` with its field.
 */
export class CreateBusinessCustomerRequest {
  @ApiProperty({
    description:
      'CNPJ, 14 characters unformatted: numeric, or alphanumeric (IN RFB 2.229/2024: 12 digits or upper-case letters, then 2 check digits). Invalid: 400 invalid_cnpj',
    example: '12ABC34501DE35',
  })
  @IsCnpj(INVALID_CNPJ)
  cnpj!: string;

  @ApiProperty({ example: 'Acme Pagamentos Ltda' })
  @Text(200)
  legal_name!: string;

  @ApiPropertyOptional({ example: 'Acme' })
  @IsOptional()
  @Text(200)
  trade_name?: string;

  @ApiProperty({ example: 'finance@acme.com.br' })
  @Email()
  email!: string;

  @ApiProperty({ description: 'E.164; invalid: 400 invalid_phone', example: '+551133334444' })
  @IsE164Phone(INVALID_PHONE)
  phone!: string;

  @ApiProperty({ type: () => CustomerAddress })
  @IsObject({ message: 'address must be a JSON object' })
  @ValidateNested()
  @Type(() => CustomerAddress)
  address!: CustomerAddress;

  @ApiProperty({ type: () => [CustomerOwner], minItems: 1, maxItems: MAX_OWNERS })
  @IsArray({ message: `owners must be a list of 1 to ${MAX_OWNERS} owners` })
  @ArrayMinSize(1, { message: `owners must be a list of 1 to ${MAX_OWNERS} owners` })
  @ArrayMaxSize(MAX_OWNERS, { message: `owners must be a list of 1 to ${MAX_OWNERS} owners` })
  @ValidateNested({ each: true, message: 'each owner must be a JSON object' })
  @OwnershipWithinWhole()
  @Type(() => CustomerOwner)
  owners!: CustomerOwner[];

  // A schema of its own, not the CustomerMetadata class's: the object is free-form (any keys), which a
  // class schema cannot say, and the answers echo it as given.
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    properties: { external_id: { type: 'string', description: 'Your identifier of the customer', maxLength: MAX_EXTERNAL_ID_LENGTH } },
    description: `Free-form JSON object, at most ${MAX_METADATA_BYTES} bytes`,
  })
  @IsOptional()
  @IsCustomerMetadata()
  metadata?: CustomerMetadata;

  @ApiPropertyOptional({ type: () => CustomerConfig })
  @IsOptional()
  @IsObject({ message: 'config must be a JSON object' })
  @ValidateNested()
  @Type(() => CustomerConfig)
  config?: CustomerConfig;
}
