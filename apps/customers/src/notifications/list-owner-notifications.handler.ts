import { Controller } from '@nestjs/common';
import { ListOwnerNotificationsQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListOwnerNotificationsUseCase } from './list-owner-notifications.use-case';

@Controller()
export class ListOwnerNotificationsHandler {
  constructor(private readonly listOwnerNotifications: ListOwnerNotificationsUseCase) {}

  @HandleRequest(Topics.CustomersListOwnerNotifications)
  handle(query: ListOwnerNotificationsQuery): Promise<RequestReply<typeof Topics.CustomersListOwnerNotifications>> {
    return this.listOwnerNotifications.execute(query);
  }
}
