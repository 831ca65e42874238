import { Injectable } from '@nestjs/common';
import { ListOwnerNotificationsResult, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/**
 * The operator's view of a business customer's owner notifications, kept by the customers service
 * (customers.query.list-owner-notifications.v1): the partner is checked here first, so an unknown one is
 * partner_not_found; an unknown customer (or another partner's) is the service's not_found.
 */
@Injectable()
export class ReadOwnerNotificationsUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(pathPartnerId: string, customerId: string): Promise<ListOwnerNotificationsResult> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.CustomersListOwnerNotifications, { partner_id: partnerId, id: customerId }));
  }
}
