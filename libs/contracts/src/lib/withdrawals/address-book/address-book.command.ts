import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, IsUUID, Length, Matches, ValidateNested } from 'class-validator';
import { IsCpf, IsEvmAddress } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { PartnerId } from '../../tenancy/partner-id';
import { Beneficiary } from '../beneficiary/beneficiary';

const withdrawalsCode = codesOf('withdrawals');

/** The proof that the owner controls a self-hosted address: an EIP-191 (personal_sign) signature of the challenge. */
export class AddressProof {
  @ApiProperty({
    description:
      "The signature (65 bytes, 0x-hex) by the address's key of the text GET /partner/v1/users/{document}/addresses/challenge?address= answers",
    example: '0x4f1c…1b',
  })
  @IsString({ message: 'proof.signature must be a 0x-hex signature of 65 bytes' })
  @Matches(/^0x[0-9a-fA-F]{130}$/, { message: 'proof.signature must be a 0x-hex signature of 65 bytes' })
  signature!: string;
}

/** The body of POST /partner/v1/users/{document}/addresses: a destination the user saves, with its owner. */
export class SaveAddressRequest {
  @ApiProperty({ description: 'The EVM address (mixed case must match EIP-55)', example: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' })
  @IsString(withdrawalsCode('invalid_address', 'address must be a string'))
  @IsEvmAddress(withdrawalsCode('invalid_address'))
  address!: string;

  @ApiProperty({ required: false, maxLength: 100, description: "The user's name for it", example: 'my Ledger' })
  @IsOptional()
  @IsString({ message: 'label must be 1 to 100 characters' })
  @Length(1, 100, { message: 'label must be 1 to 100 characters' })
  label?: string;

  @ApiProperty({ type: Beneficiary, description: 'Who owns it' })
  // ValidateNested passes a missing value: IsObject makes it required.
  @IsObject({ message: 'beneficiary must be an object: {wallet, name, first_party, vasp_name?, document?}' })
  @ValidateNested()
  @Type(() => Beneficiary)
  beneficiary!: Beneficiary;

  @ApiProperty({
    type: AddressProof,
    required: false,
    description: 'Proof that the owner controls it (a self-hosted wallet): verified, then kept',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressProof)
  proof?: AddressProof;
}

/** withdrawals.command.save-address.v1 (saving it again replaces its label, owner and proof; its cool-down runs from the first save). */
export class SaveAddressCommand extends SaveAddressRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

/** withdrawals.command.remove-address.v1 / the path of DELETE /partner/v1/users/{document}/addresses/{address}. */
export class RemoveAddressCommand {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;

  @IsEvmAddress()
  address!: string;
}

/** withdrawals.query.addresses.v1: the user's saved addresses. */
export class ListAddressesQuery {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;
}

/** `{document}` and `{address}` of DELETE /partner/v1/users/{document}/addresses/{address}. */
export class AddressParams {
  @ApiProperty({ description: "The user's CPF" })
  @IsCpf()
  document!: string;

  @ApiProperty({ description: 'The saved address (any case)' })
  @IsString(withdrawalsCode('invalid_address', 'address must be a string'))
  @IsEvmAddress(withdrawalsCode('invalid_address'))
  address!: string;
}

/** The query of GET /partner/v1/users/{document}/addresses/challenge. */
export class AddressChallengeQuery {
  @ApiProperty({ description: 'The address to prove control of' })
  @IsString(withdrawalsCode('invalid_address', 'address must be a string'))
  @IsEvmAddress(withdrawalsCode('invalid_address'))
  address!: string;
}

export class AddressChallenge {
  @ApiProperty({ description: "The text for the address's key to sign with personal_sign (EIP-191)" })
  message!: string;
}

/**
 * The text a self-hosted address's key signs to prove control (EIP-191): it names the address, the user and the
 * partner, so a signature proves that owner's control for that user only.
 */
export const addressChallenge = (partnerId: string, document: string, address: string): string =>
  `I control ${address.toLowerCase()} and allow it to receive USDT withdrawals of user ${document} of partner ${partnerId}.`;

export class SavedAddressView {
  @ApiProperty({ description: 'In lower case' }) address!: string;
  @ApiProperty({ type: String, nullable: true }) label!: string | null;
  @ApiProperty({ type: Beneficiary }) beneficiary!: Beneficiary;
  @ApiProperty({ description: 'Whether a proof of control (EIP-191 signature) was verified' }) verified!: boolean;
  @ApiProperty({ type: 'integer', description: 'Unix seconds: when it was first saved' }) created_at!: number;
  @ApiProperty({ type: 'integer', description: "Unix seconds: from when it can be paid under the partner's cool-down" })
  usable_from!: number;
}

export class SavedAddressList {
  @ApiProperty({ type: [SavedAddressView] }) addresses!: SavedAddressView[];
}
