import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS_REGISTRY } from '@partner/platform';
import { Counter, Registry } from 'prom-client';

/** The owner notifier's metrics (docs/operations/notifications.md), labelled by channel. */
@Injectable()
export class NotificationMetrics {
  readonly attempts = new Counter({
    name: 'owner_notification_attempts_total',
    help: 'Attempts to send an owner notification, by channel (sms, email) and outcome: sent, retry (failed, another attempt scheduled), failed (the last one failed)',
    labelNames: ['channel', 'outcome'],
    registers: [],
  });
  readonly failed = new Counter({
    name: 'owner_notifications_failed_total',
    help: 'Owner notifications failed for good (every attempt failed, or the last one never finished): each one an alert for an operator',
    labelNames: ['channel'],
    registers: [],
  });

  constructor(@Optional() @Inject(METRICS_REGISTRY) registry?: Registry) {
    for (const m of [this.attempts, this.failed]) registry?.registerMetric(m);
  }
}
