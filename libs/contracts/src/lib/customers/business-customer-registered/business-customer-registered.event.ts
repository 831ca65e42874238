import { Equals } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';
import { BrazilianState, OwnershipType, OwnerType } from '../create-business-customer/create-business-customer.request';

export interface BusinessCustomerAddressSnapshot {
  street: string;
  number: string;
  complement: string | null;
  neighborhood: string;
  city: string;
  state: BrazilianState;
  postal_code: string;
}

/**
 * An owner inside the event: who they are and their share. Contact details, birth date, nationalities
 * and address were given by the partner and are not repeated in every event.
 */
export interface BusinessCustomerOwnerSnapshot {
  owner_type: OwnerType;
  name: string;
  social_name: string | null;
  document: string;
  ownership: { ownership_type: OwnershipType; ownership_bps: number };
}

/**
 * The customer inside a business_customer event (README: "Business customers"). Optional fields the
 * request left out are null; `metadata` is echoed as given ({} when absent), `external_id` included;
 * `config` has both flags, false when not given.
 */
export interface BusinessCustomerSnapshot {
  id: string;
  cnpj: string;
  legal_name: string;
  trade_name: string | null;
  email: string;
  phone: string;
  address: BusinessCustomerAddressSnapshot;
  owners: BusinessCustomerOwnerSnapshot[];
  metadata: Record<string, unknown>;
  config: { auto_send_owner_sms: boolean; auto_send_owner_email: boolean };
  created_at: number;
}

export class BusinessCustomerRegisteredEvent extends FeedEvent<BusinessCustomerSnapshot> {
  @Equals('business_customer')
  override type!: 'business_customer';

  @Equals('registered')
  override state!: 'registered';
}
