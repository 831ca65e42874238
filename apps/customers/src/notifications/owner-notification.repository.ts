import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId } from '@partner/contracts';
import { Database, statement } from '@partner/db';

export const NOTIFICATION_CHANNELS = ['sms', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** A notification to record with its customer (CustomerRepository.create writes them in the same statement). */
export interface NewOwnerNotification {
  ownerIndex: number;
  channel: NotificationChannel;
  destination: string;
}

export interface OwnerNotification {
  id: bigint;
  partnerId: PartnerId;
  customerId: string;
  ownerIndex: number;
  channel: NotificationChannel;
  destination: string;
  status: 'pending' | 'sent';
  createdAt: Date;
  sentAt: Date | null;
}

export type SentNotification = Pick<OwnerNotification, 'id' | 'partnerId' | 'customerId' | 'ownerIndex' | 'channel'>;

/** A row of `owner_notifications` as the driver returns it (int8 as text). */
interface OwnerNotificationRow {
  id: string;
  partner_id: string;
  customer_id: string;
  owner_index: number;
  channel: NotificationChannel;
  destination: string;
  status: 'pending' | 'sent';
  created_at: Date;
  sent_at: Date | null;
}

/** A row parsed field by field. Its partner id is its customer's, stored as a PartnerId. */
const toNotification = (r: OwnerNotificationRow): OwnerNotification => ({
  id: BigInt(r.id),
  partnerId: authenticatedPartnerId(r.partner_id),
  customerId: r.customer_id,
  ownerIndex: r.owner_index,
  channel: r.channel,
  destination: r.destination,
  status: r.status,
  createdAt: r.created_at,
  sentAt: r.sent_at,
});

const BY_CUSTOMER = statement(
  'owner_notifications_by_customer',
  'SELECT * FROM owner_notifications WHERE partner_id = $1 AND customer_id = $2 ORDER BY owner_index, channel DESC',
);

/**
 * Claims and marks as sent a batch of due notifications. With SKIP LOCKED, notifiers running at the
 * same time never claim the same row; the outer guard re-checks `pending` on the row's latest version,
 * so a row another notifier sent meanwhile is not sent twice.
 */
const MARK_DUE_SENT = statement(
  'owner_notifications_mark_due_sent',
  `UPDATE owner_notifications SET status = 'sent', sent_at = now()
   WHERE id = ANY(ARRAY(SELECT id FROM owner_notifications WHERE status = 'pending' AND created_at <= $1
                ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED))
     AND status = 'pending'
   RETURNING id, partner_id, customer_id, owner_index, channel`,
);

/**
 * Messages to a customer's owners, recorded with the customer and sent later by the simulated notifier.
 * Sending writes no event, so it is one prepared statement on the pool, atomic on its own: a unit of
 * work would only add BEGIN and COMMIT around it.
 */
@Injectable()
export class OwnerNotificationRepository {
  constructor(private readonly db: Database) {}

  async findByCustomer(partnerId: PartnerId, customerId: string): Promise<OwnerNotification[]> {
    const { rows } = await this.db.query<OwnerNotificationRow>(BY_CUSTOMER, [partnerId, customerId]);
    return rows.map(toNotification);
  }

  /**
   * Marks as sent the notifications pending since before `before`, across partners (the notifier is one
   * system process serving every partner), and returns them (see MARK_DUE_SENT).
   */
  async markDueSentAcrossPartners(before: Date, limit: number): Promise<SentNotification[]> {
    const { rows } = await this.db.query<Pick<OwnerNotificationRow, 'id' | 'partner_id' | 'customer_id' | 'owner_index' | 'channel'>>(
      MARK_DUE_SENT,
      [before, limit],
    );
    return rows.map((r) => ({
      id: BigInt(r.id),
      partnerId: authenticatedPartnerId(r.partner_id),
      customerId: r.customer_id,
      ownerIndex: r.owner_index,
      channel: r.channel,
    }));
  }
}
