import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, OwnerNotificationChannel, OwnerNotificationStatus, PartnerId } from '@partner/contracts';
import { Database, statement, Transaction, WorkQueue } from '@partner/db';
import { TemplateData } from './templates';

export type NotificationChannel = OwnerNotificationChannel;

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
  status: OwnerNotificationStatus;
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date;
  sentAt: Date | null;
  failedAt: Date | null;
  lastError: string | null;
  providerMessageId: string | null;
}

/** A notification claimed for an attempt (its `attempts` counts this one), with what its template needs. */
export interface ClaimedNotification extends Pick<
  OwnerNotification,
  'id' | 'partnerId' | 'customerId' | 'ownerIndex' | 'channel' | 'destination' | 'attempts'
> {
  template: TemplateData;
}

/** An attempt's claim on its row: the row as claimed (id and attempt number). A later claim of the same row supersedes it. */
export type Claim = Pick<ClaimedNotification, 'id' | 'attempts'>;

/** A row of `owner_notifications` as the driver returns it (int8 as text). */
interface OwnerNotificationRow {
  id: string;
  partner_id: string;
  customer_id: string;
  owner_index: number;
  channel: NotificationChannel;
  destination: string;
  status: OwnerNotificationStatus;
  attempts: number;
  created_at: Date;
  next_attempt_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
  provider_message_id: string | null;
}

interface ClaimedRow extends Pick<
  OwnerNotificationRow,
  'id' | 'partner_id' | 'customer_id' | 'owner_index' | 'channel' | 'destination' | 'attempts'
> {
  legal_name: string;
  trade_name: string | null;
  owner_name: string;
  owner_social_name: string | null;
  owner_type: TemplateData['ownerType'];
}

/** What a notification and its claim both hold, parsed field by field. Its partner id is its customer's, stored as a PartnerId. */
const toClaim = (r: ClaimedRow | OwnerNotificationRow): Omit<ClaimedNotification, 'template'> => ({
  id: BigInt(r.id),
  partnerId: authenticatedPartnerId(r.partner_id),
  customerId: r.customer_id,
  ownerIndex: r.owner_index,
  channel: r.channel,
  destination: r.destination,
  attempts: r.attempts,
});

const toNotification = (r: OwnerNotificationRow): OwnerNotification => ({
  ...toClaim(r),
  status: r.status,
  createdAt: r.created_at,
  nextAttemptAt: r.next_attempt_at,
  sentAt: r.sent_at,
  failedAt: r.failed_at,
  lastError: r.last_error,
  providerMessageId: r.provider_message_id,
});

const toClaimed = (r: ClaimedRow): ClaimedNotification => ({
  ...toClaim(r),
  template: {
    legalName: r.legal_name,
    tradeName: r.trade_name,
    ownerName: r.owner_name,
    ownerSocialName: r.owner_social_name,
    ownerType: r.owner_type,
  },
});

const BY_CUSTOMER = statement(
  'owner_notifications_by_customer',
  'SELECT * FROM owner_notifications WHERE partner_id = $1 AND customer_id = $2 ORDER BY owner_index, channel DESC',
);

const CUSTOMER_EXISTS = statement('owner_notifications_customer_exists', 'SELECT 1 FROM customers WHERE partner_id = $1 AND id = $2');

/**
 * The notifier's queue (WorkQueue, libs/db: claim, lease, settle, at least once): pending notifications, across
 * partners. A claim answers each with the names its template needs, read off its customer's registration (the
 * owner at its index); nothing else of it.
 */
const QUEUE = new WorkQueue({
  name: 'owner_notifications',
  table: 'owner_notifications',
  workable: "status = 'pending'",
  project: `SELECT claimed.id, claimed.partner_id, claimed.customer_id, claimed.owner_index, claimed.channel, claimed.destination,
                   claimed.attempts, c.legal_name,
                   c.body ->> 'trade_name' AS trade_name,
                   c.body -> 'owners' -> claimed.owner_index ->> 'name' AS owner_name,
                   c.body -> 'owners' -> claimed.owner_index ->> 'social_name' AS owner_social_name,
                   c.body -> 'owners' -> claimed.owner_index ->> 'owner_type' AS owner_type
            FROM claimed JOIN customers c ON c.id = claimed.customer_id
            ORDER BY claimed.id`,
});

/**
 * An attempt that never reported (its instance stopped during it) on a notification with no attempt left:
 * failed, once its lease is over, instead of a further attempt past NOTIFY_MAX_ATTEMPTS.
 */
const FAIL_ABANDONED = statement(
  'owner_notifications_fail_abandoned',
  `UPDATE owner_notifications
   SET status = 'failed', failed_at = $1, last_error = 'the last attempt never finished (its instance stopped during it)'
   WHERE status = 'pending' AND next_attempt_at <= $1 AND attempts >= $2
   RETURNING id`,
);

// The outcome of an attempt, written only while the row is still the attempt's (QUEUE.heldBy): an attempt that
// outlived its lease, whose row another notifier claimed since, changes nothing. A retry is QUEUE.retryLater.
const MARK_SENT = statement(
  'owner_notifications_mark_sent',
  `UPDATE owner_notifications SET status = 'sent', sent_at = $3, provider_message_id = $4 WHERE ${QUEUE.heldBy(1, 2)}`,
);
const MARK_FAILED = statement(
  'owner_notifications_mark_failed',
  `UPDATE owner_notifications SET status = 'failed', failed_at = $3, last_error = $4 WHERE ${QUEUE.heldBy(1, 2)}`,
);

/** One partner's SMS quota at a time: held to the end of the transaction that counts and then records SMS. */
const LOCK_SMS_QUOTA = statement(
  'owner_sms_quota_lock',
  `SELECT pg_advisory_xact_lock(hashtextextended('owner-sms-quota:' || $1::text, 0))`,
);
/** The partner's SMS of the last 24 hours (the partial index owner_notifications_sms_idx). */
const SMS_WITHIN_DAY = statement(
  'owner_sms_within_day',
  `SELECT count(*)::int AS used FROM owner_notifications
   WHERE partner_id = $1 AND channel = 'sms' AND created_at > now() - interval '24 hours'`,
);
/** Whole seconds until the $2 oldest of them have left the 24 hours. */
const SMS_FREED_IN = statement(
  'owner_sms_freed_in',
  `SELECT greatest(1, ceil(extract(epoch FROM created_at + interval '24 hours' - now())))::int AS seconds
   FROM owner_notifications
   WHERE partner_id = $1 AND channel = 'sms' AND created_at > now() - interval '24 hours'
   ORDER BY created_at OFFSET $2::int - 1 LIMIT 1`,
);

/**
 * Messages to a customer's owners, recorded with the customer and sent later by the notifier (its queue).
 * Sending writes no event, so each change is one prepared statement on the pool, atomic on its own.
 */
@Injectable()
export class OwnerNotificationRepository {
  constructor(private readonly db: Database) {}

  /**
   * The SMS the partner's registrations recorded in the last 24 hours, counted under the partner's quota lock,
   * which `tx` holds until it ends: concurrent registrations of one partner count and record their SMS in turn.
   */
  async lockSmsWithinDay(tx: Transaction, partnerId: PartnerId): Promise<number> {
    await tx.query(LOCK_SMS_QUOTA, [partnerId]);
    const { rows } = await tx.query<{ used: number }>(SMS_WITHIN_DAY, [partnerId]);
    return rows[0].used;
  }

  /** Whole seconds until `count` of the partner's SMS of the last 24 hours (the oldest) have left them. */
  async smsFreedIn(tx: Transaction, partnerId: PartnerId, count: number): Promise<number> {
    const { rows } = await tx.query<{ seconds: number }>(SMS_FREED_IN, [partnerId, count]);
    return rows[0]?.seconds ?? 1;
  }

  async findByCustomer(partnerId: PartnerId, customerId: string): Promise<OwnerNotification[]> {
    const { rows } = await this.db.query<OwnerNotificationRow>(BY_CUSTOMER, [partnerId, customerId]);
    return rows.map(toNotification);
  }

  /** Whether the partner has a customer `customerId` (another partner's does not count). */
  async customerExists(partnerId: PartnerId, customerId: string): Promise<boolean> {
    const { rows } = await this.db.query(CUSTOMER_EXISTS, [partnerId, customerId]);
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` notifications due at `now`, across partners (the notifier is one system process
   * serving every partner), each one attempt more, reserved until `leaseUntil` (see QUEUE).
   */
  async claimDueAcrossPartners(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedNotification[]> {
    const rows = await QUEUE.claim<ClaimedRow>(this.db, now, leaseUntil, limit);
    return rows.map(toClaimed);
  }

  /** Fails, across partners, the notifications whose last attempt (of `maxAttempts`) never reported (see FAIL_ABANDONED); how many. */
  async failAbandonedAcrossPartners(now: Date, maxAttempts: number): Promise<number> {
    const { rows } = await this.db.query(FAIL_ABANDONED, [now, maxAttempts]);
    return rows.length;
  }

  /** The attempt succeeded; false when the row is no longer this attempt's (see MARK_SENT). */
  async markSent(claim: Claim, at: Date, providerMessageId: string): Promise<boolean> {
    return this.outcome(MARK_SENT, claim, at, providerMessageId);
  }

  /** The attempt failed; another is due at `retryAt`. `error` is written as given: no personal data (SendError). */
  scheduleRetry(claim: Claim, retryAt: Date, error: string): Promise<boolean> {
    return QUEUE.retryLater(this.db, claim, retryAt, error);
  }

  /** The attempt failed and was the last: failed for good. */
  async markFailed(claim: Claim, at: Date, error: string): Promise<boolean> {
    return this.outcome(MARK_FAILED, claim, at, error);
  }

  private async outcome(s: typeof MARK_SENT, claim: Claim, at: Date, text: string): Promise<boolean> {
    const { rowCount } = await this.db.query(s, [claim.id.toString(), claim.attempts, at, text]);
    return rowCount === 1;
  }
}
