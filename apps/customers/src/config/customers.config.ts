import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@partner/config';

export class CustomersConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3104;

  /** Simulated notifier: how long an owner notification waits before it is sent. */
  @IsInt() @Min(0) @Max(3_600_000)
  OWNER_NOTIFY_DELAY_MS: number = 1_000;

  /** How often the simulated notifier looks for notifications to send. */
  @IsInt() @Min(10) @Max(60_000)
  OWNER_NOTIFY_TICK_MS: number = 500;
}
