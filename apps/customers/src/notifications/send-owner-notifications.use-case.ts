import { Injectable, Logger } from '@nestjs/common';
import { CustomersConfig } from '../config/customers.config';
import { OwnerNotificationRepository } from './owner-notification.repository';

const BATCH = 200;

/**
 * The simulated notifier: "sends" the SMS and e-mails to owners that registrations asked for, once they
 * have waited OWNER_NOTIFY_DELAY_MS. Sending is a log line; no message leaves the machine.
 */
@Injectable()
export class SendOwnerNotificationsUseCase {
  private readonly logger = new Logger(SendOwnerNotificationsUseCase.name);

  constructor(
    private readonly config: CustomersConfig,
    private readonly notifications: OwnerNotificationRepository,
  ) {}

  /** Sends every notification due at `now`; returns how many were sent. */
  async execute(now = new Date()): Promise<number> {
    const sent = await this.notifications.markDueSentAcrossPartners(new Date(now.getTime() - this.config.OWNER_NOTIFY_DELAY_MS), BATCH);
    // The destination is personal data: the log names the customer and the owner's position instead.
    for (const n of sent) this.logger.log(`Sent ${n.channel} to owner ${n.ownerIndex} of business customer ${n.customerId} (simulated)`);
    return sent.length;
  }
}
