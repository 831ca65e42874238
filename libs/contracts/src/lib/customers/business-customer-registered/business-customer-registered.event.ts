import { ApiProperty } from '../../api-documentation';
import { Type } from 'class-transformer';
import { Equals, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { Nullable } from '../../feed/nullable.validator';
import { FeedEvent } from '../../feed/feed-event.event';
import {
  BRAZILIAN_STATES,
  BrazilianState,
  OWNER_TYPES,
  OWNERSHIP_TYPES,
  OwnershipType,
  OwnerType,
} from '../create-business-customer/create-business-customer.request';
import { UnixSeconds } from '../../feed/unix-seconds.property';

export class BusinessCustomerAddressSnapshot {
  @ApiProperty({ example: 'Avenida Paulista' })
  @IsString()
  street!: string;

  @ApiProperty({ example: '1578' })
  @IsString()
  number!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Sala 42' })
  @Nullable()
  @IsString()
  complement!: string | null;

  @ApiProperty({ example: 'Bela Vista' })
  @IsString()
  neighborhood!: string;

  @ApiProperty({ example: 'São Paulo' })
  @IsString()
  city!: string;

  @ApiProperty({ enum: BRAZILIAN_STATES })
  @IsIn(BRAZILIAN_STATES)
  state!: BrazilianState;

  @ApiProperty({ example: '01310200' })
  @IsString()
  postal_code!: string;
}

export class BusinessCustomerOwnershipSnapshot {
  @ApiProperty({ enum: OWNERSHIP_TYPES })
  @IsIn(OWNERSHIP_TYPES)
  ownership_type!: OwnershipType;

  @ApiProperty({ type: 'integer', description: 'Share in basis points (5000 = 50%)', example: 10_000 })
  @IsInt()
  ownership_bps!: number;
}

/**
 * An owner inside the event: who they are and their share. Contact details, birth date, nationalities
 * and address were given by the partner and are not repeated in every event.
 */
export class BusinessCustomerOwnerSnapshot {
  @ApiProperty({ enum: OWNER_TYPES })
  @IsIn(OWNER_TYPES)
  owner_type!: OwnerType;

  @ApiProperty({ example: 'Maria da Silva' })
  @IsString()
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  @Nullable()
  @IsString()
  social_name!: string | null;

  @ApiProperty({ description: "The owner's CPF", example: '52998224725' })
  @IsString()
  document!: string;

  @ApiProperty({ type: () => BusinessCustomerOwnershipSnapshot })
  @ValidateNested()
  @Type(() => BusinessCustomerOwnershipSnapshot)
  ownership!: BusinessCustomerOwnershipSnapshot;
}

export class BusinessCustomerConfigSnapshot {
  @ApiProperty()
  @IsBoolean()
  auto_send_owner_sms!: boolean;

  @ApiProperty()
  @IsBoolean()
  auto_send_owner_email!: boolean;
}

/**
 * The customer inside a business_customer event (docs/api.md: "Business customers"). Optional fields the
 * request left out are null; `metadata` is echoed as given ({} when absent), `external_id` included;
 * `config` has both flags, false when not given.
 */
export class BusinessCustomerSnapshot {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  id!: string;

  @ApiProperty({ example: '12ABC34501DE35' })
  @IsString()
  cnpj!: string;

  @ApiProperty({ example: 'Acme Pagamentos Ltda' })
  @IsString()
  legal_name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Acme' })
  @Nullable()
  @IsString()
  trade_name!: string | null;

  @ApiProperty({ example: 'finance@acme.com.br' })
  @IsString()
  email!: string;

  @ApiProperty({ example: '+551133334444' })
  @IsString()
  phone!: string;

  @ApiProperty({ type: () => BusinessCustomerAddressSnapshot })
  @ValidateNested()
  @Type(() => BusinessCustomerAddressSnapshot)
  address!: BusinessCustomerAddressSnapshot;

  @ApiProperty({ type: () => [BusinessCustomerOwnerSnapshot] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => BusinessCustomerOwnerSnapshot)
  owners!: BusinessCustomerOwnerSnapshot[];

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    properties: { external_id: { type: 'string' } },
    description: 'The metadata of the request, as given ({} when none)',
    example: { external_id: 'acme-001' },
  })
  @IsObject()
  metadata!: Record<string, unknown>;

  @ApiProperty({ type: () => BusinessCustomerConfigSnapshot })
  @ValidateNested()
  @Type(() => BusinessCustomerConfigSnapshot)
  config!: BusinessCustomerConfigSnapshot;

  @UnixSeconds()
  created_at!: number;
}

export class BusinessCustomerRegisteredEvent extends FeedEvent<BusinessCustomerSnapshot> {
  @Equals('business_customer')
  override type!: 'business_customer';

  @Equals('registered')
  override state!: 'registered';

  @ValidateNested()
  @Type(() => BusinessCustomerSnapshot)
  override resource!: BusinessCustomerSnapshot;
}
