import { Injectable } from '@nestjs/common';
import { metric, metricSet } from '@partner/platform';

/** The owner notifier's metrics (docs/operations/notifications.md), labelled by channel. */
@Injectable()
export class NotificationMetrics extends metricSet({
  attempts: metric.counter(
    'owner_notification_attempts_total',
    ['channel', 'outcome'],
    'Attempts to send an owner notification, by channel (sms, email) and outcome: sent, retry (failed, another attempt scheduled), failed (the last one, or one the provider refused for good)',
  ),
  failed: metric.counter(
    'owner_notifications_failed_total',
    ['channel'],
    'Owner notifications failed for good (the provider refused the recipient or message for good, every attempt failed, or the last one never finished): each one an alert for an operator',
  ),
}) {}
