import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { CustomersConfig } from '../config/customers.config';
import { SendOwnerNotificationsUseCase } from './send-owner-notifications.use-case';

/** Drives the owner notifier every NOTIFY_POLL_MS (a run at a time; periodic_job_* metrics as owner-notifier). */
@Injectable()
export class OwnerNotifierService extends PeriodicJobService {
  constructor(config: CustomersConfig, send: SendOwnerNotificationsUseCase) {
    super({ name: 'owner-notifier', intervalMs: config.NOTIFY_POLL_MS, run: () => send.execute() });
  }
}
