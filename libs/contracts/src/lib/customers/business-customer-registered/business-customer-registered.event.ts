import { Equals } from 'class-validator';
import { FeedEvent } from '../../feed/feed-event.event';

/** The customer inside a business_customer event: the registered body (without secrets) plus its id. */
export type BusinessCustomerSnapshot = Record<string, unknown> & { id: string; cnpj: string };

export class BusinessCustomerRegisteredEvent extends FeedEvent<BusinessCustomerSnapshot> {
  @Equals('business_customer')
  override type!: 'business_customer';

  @Equals('registered')
  override state!: 'registered';
}
