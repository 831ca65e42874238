import { Module } from '@nestjs/common';
import { CustomersConfig, SINK_ENVIRONMENTS } from '../config/customers.config';
import { ListOwnerNotificationsHandler } from './list-owner-notifications.handler';
import { ListOwnerNotificationsUseCase } from './list-owner-notifications.use-case';
import { NotificationMetrics } from './notification-metrics';
import { notifierSettings } from './notifier-settings';
import { EMAIL_SENDER, SMS_SENDER } from './owner-message';
import { OwnerNotificationRepository } from './owner-notification.repository';
import { OwnerNotifierService } from './owner-notifier.service';
import { SendOwnerNotificationsUseCase } from './send-owner-notifications.use-case';
import { SmtpEmailSender } from './smtp-email.sender';
import { TwilioSmsSender } from './twilio-sms.sender';

/** Owner notifications: the notifier and its two adapters (SMTP, Twilio), and the operator's view of them. */
@Module({
  controllers: [ListOwnerNotificationsHandler],
  providers: [
    OwnerNotificationRepository,
    NotificationMetrics,
    {
      provide: EMAIL_SENDER,
      inject: [CustomersConfig],
      useFactory: (config: CustomersConfig) =>
        new SmtpEmailSender(notifierSettings(config).smtp, !SINK_ENVIRONMENTS.includes(config.NODE_ENV)),
    },
    {
      provide: SMS_SENDER,
      inject: [CustomersConfig],
      useFactory: (config: CustomersConfig) => new TwilioSmsSender(notifierSettings(config).twilio),
    },
    SendOwnerNotificationsUseCase,
    OwnerNotifierService,
    ListOwnerNotificationsUseCase,
  ],
  // The registration counts a partner's SMS against its quota where it records them.
  exports: [OwnerNotificationRepository],
})
export class NotificationsModule {}
