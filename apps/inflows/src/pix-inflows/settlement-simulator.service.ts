import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InflowsConfig } from '../config/inflows.config';
import { AdvancePixInflowsUseCase } from './advance-pix-inflows.use-case';

/** Drives the simulated settlement on a timer; one tick at a time, never overlapping. */
@Injectable()
export class SettlementSimulatorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SettlementSimulatorService.name);
  private timer?: NodeJS.Timeout;
  private tick?: Promise<unknown>;
  private stopped = false;

  constructor(private readonly config: InflowsConfig, private readonly advance: AdvancePixInflowsUseCase) {}

  onApplicationBootstrap(): void {
    // run() never rejects (a failed tick is logged), so the timer may start it detached.
    const run = async () => {
      this.tick = this.advance.execute().catch((e: Error) => this.logger.warn(`Settlement tick failed, will retry: ${e.message}`));
      await this.tick;
      if (!this.stopped) this.timer = setTimeout(() => void run(), this.config.PIX_IN_TICK_MS);
    };
    this.timer = setTimeout(() => void run(), this.config.PIX_IN_TICK_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick;
  }
}
