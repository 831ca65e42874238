import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CustomersConfig } from '../config/customers.config';
import { SendOwnerNotificationsUseCase } from './send-owner-notifications.use-case';

/** Drives the simulated notifier on a timer; one tick at a time, never overlapping. */
@Injectable()
export class OwnerNotifierService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OwnerNotifierService.name);
  private timer?: NodeJS.Timeout;
  private tick?: Promise<unknown>;

  constructor(private readonly config: CustomersConfig, private readonly send: SendOwnerNotificationsUseCase) {}

  onApplicationBootstrap(): void {
    // run() never rejects (a failed tick is logged), so the timer may start it detached.
    const run = async () => {
      this.tick = this.send.execute().catch((e: Error) => this.logger.warn(`Notifier tick failed, will retry: ${e.message}`));
      await this.tick;
      this.timer = setTimeout(() => void run(), this.config.OWNER_NOTIFY_TICK_MS);
    };
    this.timer = setTimeout(() => void run(), this.config.OWNER_NOTIFY_TICK_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.tick;
    clearTimeout(this.timer);
  }
}
