import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, IsUUID, Length, Matches, ValidateNested } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * The DICT's account types (its `AccountType`): CACC checking, SVGS savings, TRAN payment account, SLRY
 * salary. Users get a payment account (TRAN) at the operator.
 */
export const ACCOUNT_TYPES = ['CACC', 'SVGS', 'TRAN', 'SLRY'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** A holder's name as DICT takes it: 1-120 characters, not blank, no control or format characters. */
export const HOLDER_NAME = /^[^\p{Cc}\p{Cf}]*[^\p{Cc}\p{Cf}\s][^\p{Cc}\p{Cf}]*$/u;
export const HOLDER_NAME_MESSAGE = 'name must be 1 to 120 characters, not blank, without control characters';

/**
 * DICT's rule for a natural person's name (`openapi/schemas/NaturalPerson.yaml`, `Name`): letters (Latin-1
 * accented ones included), spaces, apostrophes and hyphens, at most 120. Stricter than HOLDER_NAME: a name
 * the operator stored outside it is refused when a key is asked for (`holder_name_invalid`); a name given
 * with the key request is held to it at once. A pix-keys spec checks it against the published document.
 */
export const DICT_NATURAL_PERSON_NAME = /^([A-Za-zÀ-ÖØ-öø-ÿ' -]+)$/;
export const DICT_NAME_MAX_LENGTH = 120;
export const DICT_NAME_MESSAGE = "name must be 1 to 120 letters (accented ones included), spaces, ' or -, as DICT takes a holder's name";

export const isDictName = (name: string): boolean =>
  name.length <= DICT_NAME_MAX_LENGTH && DICT_NATURAL_PERSON_NAME.test(name) && name.trim().length > 0;

/** A user's transactional account at the operator, as DICT and the SPI name it. */
export class UserAccount {
  /** The operator's ISPB (8 digits). */
  @Matches(/^\d{8}$/, { message: 'ispb must be 8 digits' })
  ispb!: string;

  /** Branch (agência), 4 digits. */
  @Matches(/^\d{4}$/, { message: 'branch must be 4 digits' })
  branch!: string;

  /** Account number, digits only (with its check digit), up to 20 as DICT allows. */
  @Matches(/^\d{1,20}$/, { message: 'number must be 1 to 20 digits' })
  number!: string;

  @IsIn(ACCOUNT_TYPES)
  type!: AccountType;

  /** When the account was opened (ISO 8601): DICT's `openingDate`. */
  @IsString()
  opened_at!: string;
}

/**
 * Makes a user known to a service that keeps users of its own (withdrawals: the USDT account; pix-keys,
 * inflows). The gateway sends it to each of them when an operator (or the sandbox) registers a user;
 * idempotent. `name`: the holder's name (DICT records it with the key), given at registration or later
 * (a later upsert with a name sets it). `account`: the user's payment account, which inflows opens and
 * answers; the gateway passes it on to pix-keys.
 */
export class UpsertUserCommand {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;

  @IsOptional()
  @IsString({ message: HOLDER_NAME_MESSAGE })
  @Matches(HOLDER_NAME, { message: HOLDER_NAME_MESSAGE })
  @Length(1, 120, { message: HOLDER_NAME_MESSAGE })
  name?: string;

  /**
   * A name for a user that has none (the sandbox's made-up holder name); never replaces one, and `name`
   * wins when both are given.
   */
  @IsOptional()
  @IsString({ message: HOLDER_NAME_MESSAGE })
  @Matches(HOLDER_NAME, { message: HOLDER_NAME_MESSAGE })
  @Length(1, 120, { message: HOLDER_NAME_MESSAGE })
  default_name?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => UserAccount)
  account?: UserAccount;
}

export interface UpsertUserResult {
  created: boolean;
  /** When this service first knew the user (ISO 8601). */
  created_at: string;
  /** inflows only: the user's payment account (opened at the first upsert). */
  account?: UserAccount;
}
