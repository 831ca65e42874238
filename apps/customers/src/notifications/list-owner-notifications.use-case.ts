import { Injectable } from '@nestjs/common';
import { fail, ListOwnerNotificationsQuery, ok, OwnerNotificationView, RequestReply, Topics } from '@partner/contracts';
import { OwnerNotification, OwnerNotificationRepository } from './owner-notification.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** A notification as the operator API shows it (GET /admin/v1/partners/{partner_id}/business-customers/{id}/notifications). */
export const toView = (n: OwnerNotification): OwnerNotificationView => ({
  id: Number(n.id),
  owner_index: n.ownerIndex,
  channel: n.channel,
  destination: n.destination,
  status: n.status,
  attempts: n.attempts,
  created_at: unix(n.createdAt),
  next_attempt_at: n.status === 'pending' ? unix(n.nextAttemptAt) : null,
  sent_at: n.sentAt ? unix(n.sentAt) : null,
  failed_at: n.failedAt ? unix(n.failedAt) : null,
  last_error: n.lastError,
  provider_message_id: n.providerMessageId,
});

/** The owner notifications of one of a partner's business customers; another partner's customer is not_found, like a missing one. */
@Injectable()
export class ListOwnerNotificationsUseCase {
  constructor(private readonly notifications: OwnerNotificationRepository) {}

  async execute(query: ListOwnerNotificationsQuery): Promise<RequestReply<typeof Topics.CustomersListOwnerNotifications>> {
    if (!(await this.notifications.customerExists(query.partner_id, query.id)))
      return fail('not_found', `no business customer ${query.id}`);
    const rows = await this.notifications.findByCustomer(query.partner_id, query.id);
    return ok({ notifications: rows.map(toView) });
  }
}
