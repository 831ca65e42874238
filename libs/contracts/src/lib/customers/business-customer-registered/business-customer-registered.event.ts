import { ApiProperty } from '@nestjs/swagger';
import { Equals } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';
import { BRAZILIAN_STATES, BrazilianState, OWNER_TYPES, OWNERSHIP_TYPES, OwnershipType, OwnerType } from '../create-business-customer/create-business-customer.request';

export class BusinessCustomerAddressSnapshot {
  @ApiProperty({ example: 'Avenida Paulista' })
  street!: string;

  @ApiProperty({ example: '1578' })
  number!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Sala 42' })
  complement!: string | null;

  @ApiProperty({ example: 'Bela Vista' })
  neighborhood!: string;

  @ApiProperty({ example: 'São Paulo' })
  city!: string;

  @ApiProperty({ enum: BRAZILIAN_STATES })
  state!: BrazilianState;

  @ApiProperty({ example: '01310200' })
  postal_code!: string;
}

export class BusinessCustomerOwnershipSnapshot {
  @ApiProperty({ enum: OWNERSHIP_TYPES })
  ownership_type!: OwnershipType;

  @ApiProperty({ type: 'integer', description: 'Share in basis points (5000 = 50%)', example: 10_000 })
  ownership_bps!: number;
}

/**
 * An owner inside the event: who they are and their share. Contact details, birth date, nationalities
 * and address were given by the partner and are not repeated in every event.
 */
export class BusinessCustomerOwnerSnapshot {
  @ApiProperty({ enum: OWNER_TYPES })
  owner_type!: OwnerType;

  @ApiProperty({ example: 'Maria da Silva' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  social_name!: string | null;

  @ApiProperty({ description: "The owner's CPF", example: '52998224725' })
  document!: string;

  @ApiProperty({ type: () => BusinessCustomerOwnershipSnapshot })
  ownership!: BusinessCustomerOwnershipSnapshot;
}

export class BusinessCustomerConfigSnapshot {
  @ApiProperty()
  auto_send_owner_sms!: boolean;

  @ApiProperty()
  auto_send_owner_email!: boolean;
}

/**
 * The customer inside a business_customer event (docs/api.md: "Business customers"). Optional fields the
 * request left out are null; `metadata` is echoed as given ({} when absent), `external_id` included;
 * `config` has both flags, false when not given.
 */
export class BusinessCustomerSnapshot {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: '12ABC34501DE35' })
  cnpj!: string;

  @ApiProperty({ example: 'Acme Pagamentos Ltda' })
  legal_name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Acme' })
  trade_name!: string | null;

  @ApiProperty({ example: 'finance@acme.com.br' })
  email!: string;

  @ApiProperty({ example: '+551133334444' })
  phone!: string;

  @ApiProperty({ type: () => BusinessCustomerAddressSnapshot })
  address!: BusinessCustomerAddressSnapshot;

  @ApiProperty({ type: () => [BusinessCustomerOwnerSnapshot] })
  owners!: BusinessCustomerOwnerSnapshot[];

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    properties: { external_id: { type: 'string' } },
    description: 'The metadata of the request, as given ({} when none)',
    example: { external_id: 'acme-001' },
  })
  metadata!: Record<string, unknown>;

  @ApiProperty({ type: () => BusinessCustomerConfigSnapshot })
  config!: BusinessCustomerConfigSnapshot;

  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created_at!: number;
}

export class BusinessCustomerRegisteredEvent extends FeedEvent<BusinessCustomerSnapshot> {
  @Equals('business_customer')
  override type!: 'business_customer';

  @Equals('registered')
  override state!: 'registered';
}
