import { Module } from '@nestjs/common';
import { OwnerNotificationRepository } from './owner-notification.repository';
import { OwnerNotifierService } from './owner-notifier.service';
import { SendOwnerNotificationsUseCase } from './send-owner-notifications.use-case';

@Module({
  providers: [OwnerNotificationRepository, SendOwnerNotificationsUseCase, OwnerNotifierService],
})
export class NotificationsModule {}
