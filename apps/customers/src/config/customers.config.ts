import { PollIntervalMs, ServiceConfig, SimulatedDelayMs } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

export class CustomersConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.customers.healthPort;

  /** Simulated notifier: how long an owner notification waits before it is sent. */
  @SimulatedDelayMs()
  OWNER_NOTIFY_DELAY_MS: number = 1_000;

  /** How often the simulated notifier looks for notifications to send. */
  @PollIntervalMs()
  OWNER_NOTIFY_TICK_MS: number = 500;
}
