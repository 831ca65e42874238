import { PollIntervalMs, ServiceConfig, SimulatedDelayMs } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

export class InflowsConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.inflows.healthPort;

  /** Simulated settlement: how long an inflow waits in each step (processing, approved, success) before it moves on. */
  @SimulatedDelayMs()
  PIX_IN_STEP_DELAY_MS: number = 1_000;

  /** How often the simulated settlement looks for inflows to move. */
  @PollIntervalMs()
  PIX_IN_TICK_MS: number = 250;
}
