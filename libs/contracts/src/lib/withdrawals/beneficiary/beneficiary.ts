import { ApiProperty } from '../../api-documentation';
import { IsBoolean, IsIn, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { isCnpj, isCpf } from '@partner/validation';
import { registerDecorator } from 'class-validator';

export const BENEFICIARY_WALLETS = ['self_hosted', 'vasp'] as const;
export type BeneficiaryWallet = (typeof BENEFICIARY_WALLETS)[number];

const DOCUMENT_MESSAGE = 'beneficiary.document must be a CPF (11 digits) or a CNPJ (14 characters), unformatted';

/** A CPF or a CNPJ, unformatted (each with its check digits). */
function IsCpfOrCnpj(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCpfOrCnpj',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: DOCUMENT_MESSAGE },
      validator: { validate: (v: unknown) => isCpf(v) || isCnpj(v) },
    });
}

/**
 * Who the destination belongs to (docs/api.md: "The destination's owner"): a wallet the owner holds itself
 * (self-hosted) or an account at a virtual-asset service provider, its owner's name and CPF/CNPJ, and whether the
 * owner is the user (first party). What Brazil's rules for virtual-asset providers ask to be known of a transfer's
 * beneficiary (ADR 0033); carried with the withdrawal, shown in its read-back and the reports.
 */
export class Beneficiary {
  @ApiProperty({
    enum: BENEFICIARY_WALLETS,
    description: 'self_hosted: a wallet its owner holds the keys of; vasp: an account at an exchange or custodian',
  })
  @IsIn(BENEFICIARY_WALLETS, { message: `beneficiary.wallet must be one of ${BENEFICIARY_WALLETS.join(', ')}` })
  wallet!: BeneficiaryWallet;

  @ApiProperty({
    required: false,
    description: "The provider's name; required when wallet is vasp",
    maxLength: 140,
    example: 'Exchange Ltda',
  })
  @ValidateIf((b: Beneficiary) => b.wallet === 'vasp' || b.vasp_name !== undefined)
  @IsString({ message: 'beneficiary.vasp_name must be 1 to 140 characters (required when wallet is vasp)' })
  @Length(1, 140, { message: 'beneficiary.vasp_name must be 1 to 140 characters (required when wallet is vasp)' })
  vasp_name?: string;

  @ApiProperty({ description: "The owner's name", maxLength: 140, example: 'Maria da Silva Souza' })
  @IsString({ message: 'beneficiary.name must be 1 to 140 characters' })
  @Length(1, 140, { message: 'beneficiary.name must be 1 to 140 characters' })
  name!: string;

  @ApiProperty({ required: false, description: "The owner's CPF or CNPJ, unformatted", example: '52998224725' })
  @IsOptional()
  @IsCpfOrCnpj()
  document?: string;

  @ApiProperty({ description: 'Whether the owner is the user (a transfer to oneself)' })
  @IsBoolean({ message: 'beneficiary.first_party must be true or false' })
  first_party!: boolean;
}

/**
 * The beneficiary where it may be null (a withdrawal's read-back and events), written inline: OpenAPI 3.0's
 * `nullable` beside an `allOf` of the class would still apply the class's schema to null, and validators
 * (Ajv, Prism) refuse it; `properties` and `required` apply to objects only.
 */
export const NULLABLE_BENEFICIARY_SCHEMA = {
  type: 'object',
  nullable: true,
  properties: {
    wallet: { type: 'string', enum: [...BENEFICIARY_WALLETS] },
    vasp_name: { type: 'string' },
    name: { type: 'string' },
    document: { type: 'string' },
    first_party: { type: 'boolean' },
  },
  required: ['wallet', 'name', 'first_party'],
} as const;
