import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../prisma/prisma.service';

export const NOTIFICATION_CHANNELS = ['sms', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export interface NewOwnerNotification {
  ownerIndex: number;
  channel: NotificationChannel;
  destination: string;
}

export interface SentNotification {
  id: bigint;
  partnerId: string;
  customerId: string;
  ownerIndex: number;
  channel: NotificationChannel;
}

/** Messages to a customer's owners, recorded with the customer and sent later by the simulated notifier. */
@Injectable()
export class OwnerNotificationRepository {
  constructor(private readonly prisma: PrismaService) {}

  async addPending(tx: Tx, partnerId: string, customerId: string, notifications: NewOwnerNotification[]): Promise<void> {
    if (notifications.length === 0) return;
    await tx.ownerNotification.createMany({ data: notifications.map((n) => ({ ...n, partnerId, customerId })) });
  }

  findByCustomer(partnerId: string, customerId: string) {
    return this.prisma.ownerNotification.findMany({ where: { partnerId, customerId }, orderBy: [{ ownerIndex: 'asc' }, { channel: 'desc' }] });
  }

  /**
   * Marks as sent the notifications pending since before `before`, across partners (the notifier is one
   * system process serving every partner), and returns them. One statement claims each row: with
   * SKIP LOCKED, notifiers running at the same time never send the same message twice.
   */
  async markDueSentAcrossPartners(before: Date, limit: number): Promise<SentNotification[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id: bigint; partner_id: string; customer_id: string; owner_index: number; channel: NotificationChannel }>>`
      UPDATE "customers"."owner_notifications" SET status = 'sent', sent_at = now()
      WHERE id IN (
        SELECT id FROM "customers"."owner_notifications"
        WHERE status = 'pending' AND created_at <= ${before}
        ORDER BY id LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, partner_id::text, customer_id::text, owner_index, channel`;
    return rows.map((r) => ({ id: r.id, partnerId: r.partner_id, customerId: r.customer_id, ownerIndex: r.owner_index, channel: r.channel }));
  }
}
