import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@partner/config';

export class InflowsConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3105;

  /** Simulated settlement: how long an inflow waits in each step (processing, approved, success) before it moves on. */
  @IsInt() @Min(0) @Max(3_600_000)
  PIX_IN_STEP_DELAY_MS: number = 1_000;

  /** How often the simulated settlement looks for inflows to move. */
  @IsInt() @Min(10) @Max(60_000)
  PIX_IN_TICK_MS: number = 250;
}
