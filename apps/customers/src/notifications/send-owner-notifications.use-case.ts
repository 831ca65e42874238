import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CustomersConfig } from '../config/customers.config';
import { NotificationMetrics } from './notification-metrics';
import { ClaimedNotification, OwnerNotificationRepository } from './owner-notification.repository';
import { Accepted, EMAIL_SENDER, EmailSender, SendError, SMS_SENDER, SmsSender } from './owner-message';
import { afterFailure, NotifierRetryPolicy } from './retry-schedule';
import { ownerEmail, ownerSms } from './templates';
import { errorText } from '@partner/tracing';

/** What one run did: attempts by outcome. */
export interface NotifierRun {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * The owner notifier (docs/operations/notifications.md): sends the e-mails and SMS that
 * registrations asked for, each through its channel's adapter, from the owner_notifications queue the
 * registration wrote in its own transaction (so sending never holds up a registration, and a registration
 * never loses its notifications).
 *
 * Each run claims a batch of due notifications (several instances share the queue, never a row), sends them
 * side by side, and records each outcome: `sent` with the provider's id, or another attempt after the queues'
 * backoff (retry-schedule.ts), or `failed` after NOTIFY_MAX_ATTEMPTS, or at once when the provider refused the
 * recipient or the message for good (permanent-failure.ts: last_error keeps its code). The queue is the
 * WorkQueue (libs/db), so delivery is at least once: an instance that dies during an attempt leaves the row to
 * another once the lease is over (the rare copy: the provider had accepted it just before; an e-mail's copies
 * share one Message-ID, its notification's).
 *
 * Logs and last_error name the notification, its channel, customer and owner's position, never the address,
 * the phone or a document; the provider's own text is masked (SendError).
 */
@Injectable()
export class SendOwnerNotificationsUseCase {
  private readonly logger = new Logger('OwnerNotifier');
  private readonly policy: NotifierRetryPolicy;

  constructor(
    private readonly config: CustomersConfig,
    private readonly notifications: OwnerNotificationRepository,
    @Inject(EMAIL_SENDER) private readonly email: EmailSender,
    @Inject(SMS_SENDER) private readonly sms: SmsSender,
    @Optional() private readonly metrics?: NotificationMetrics,
  ) {
    this.policy = { maxAttempts: config.NOTIFY_MAX_ATTEMPTS, baseMs: config.NOTIFY_RETRY_BASE_MS, maxMs: config.NOTIFY_RETRY_MAX_MS };
  }

  /** One run at `now`: fails what was abandoned on its last attempt, then sends one batch of due notifications. */
  async execute(now = new Date()): Promise<NotifierRun> {
    const run: NotifierRun = { sent: 0, retried: 0, failed: 0 };
    const abandoned = await this.notifications.failAbandonedAcrossPartners(now, this.policy.maxAttempts);
    if (abandoned > 0) {
      this.logger.error(`${abandoned} owner notification(s) failed: their last attempt never finished`);
      run.failed += abandoned;
    }
    const leaseUntil = new Date(now.getTime() + this.config.NOTIFY_LEASE_MS);
    const claimed = await this.notifications.claimDueAcrossPartners(now, this.config.NOTIFY_BATCH, leaseUntil);
    // Outcomes are timed from `now` (a spec runs the notifier at a time of its choosing), plus the time the sends took.
    const started = Date.now();
    const clock = () => new Date(now.getTime() + (Date.now() - started));
    const outcomes = await Promise.all(claimed.map((n) => this.attempt(n, clock)));
    for (const outcome of outcomes) run[outcome]++;
    return run;
  }

  private async attempt(n: ClaimedNotification, clock: () => Date): Promise<keyof NotifierRun> {
    const what = `${n.channel} to owner ${n.ownerIndex} of business customer ${n.customerId} (notification ${n.id}, attempt ${n.attempts})`;
    let accepted: Accepted;
    try {
      accepted = await this.send(n);
    } catch (error) {
      const refusal = error instanceof SendError ? error : new SendError(n.channel, errorText(`${n.channel}: ${String(error)}`));
      return this.failedAttempt(n, what, refusal, clock());
    }
    const recorded = await this.notifications.markSent(n, clock(), accepted.providerMessageId);
    this.metrics?.attempts.inc({ channel: n.channel, outcome: 'sent' });
    this.logger.log(`Sent ${what}${recorded ? '' : ' (after its lease: another attempt had claimed it)'}`);
    return 'sent';
  }

  private send(n: ClaimedNotification): Promise<Accepted> {
    return n.channel === 'email'
      ? this.email.send({ ...ownerEmail(n.destination, n.template), key: `owner-notification-${n.id}` })
      : this.sms.send(ownerSms(n.destination, n.template));
  }

  /** A failed attempt: the last one when the refusal is permanent or no attempt is left, else another is scheduled. */
  private async failedAttempt(n: ClaimedNotification, what: string, refusal: SendError, at: Date): Promise<keyof NotifierRun> {
    const error = refusal.message;
    const next = refusal.permanent ? 'failed' : afterFailure(n.attempts, this.policy);
    if (next === 'failed') {
      await this.notifications.markFailed(n, at, error);
      this.metrics?.attempts.inc({ channel: n.channel, outcome: 'failed' });
      this.metrics?.failed.inc({ channel: n.channel });
      const why = refusal.permanent ? 'refused for good (not retried)' : `the last of ${this.policy.maxAttempts}`;
      this.logger.error(`Failed ${what}, ${why}: ${error}`);
      return 'failed';
    }
    const retryAt = new Date(at.getTime() + next.retryInMs);
    await this.notifications.scheduleRetry(n, retryAt, error);
    this.metrics?.attempts.inc({ channel: n.channel, outcome: 'retry' });
    this.logger.warn(`Could not send ${what}: ${error}; next attempt at ${retryAt.toISOString()}`);
    return 'retried';
  }
}
