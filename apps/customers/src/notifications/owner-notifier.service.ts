import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/kafka';
import { CustomersConfig } from '../config/customers.config';
import { SendOwnerNotificationsUseCase } from './send-owner-notifications.use-case';

/** Drives the simulated notifier on a timer. */
@Injectable()
export class OwnerNotifierService extends PeriodicJobService {
  constructor(config: CustomersConfig, send: SendOwnerNotificationsUseCase) {
    super({ name: 'owner-notifier', intervalMs: config.OWNER_NOTIFY_TICK_MS, run: () => send.execute() });
  }
}
