import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { AdvanceWithdrawalsUseCase } from './advance-withdrawals.use-case';

/** Drives the simulated chain on a timer; one tick at a time, never overlapping. */
@Injectable()
export class ChainSimulatorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChainSimulatorService.name);
  private timer?: NodeJS.Timeout;
  private tick?: Promise<unknown>;

  constructor(private readonly config: WithdrawalsConfig, private readonly advance: AdvanceWithdrawalsUseCase) {}

  onApplicationBootstrap(): void {
    // run() never rejects (a failed tick is logged), so the timer may start it detached.
    const run = async () => {
      this.tick = this.advance.execute().catch((e: Error) => this.logger.warn(`Chain tick failed, will retry: ${e.message}`));
      await this.tick;
      this.timer = setTimeout(() => void run(), this.config.CHAIN_TICK_MS);
    };
    this.timer = setTimeout(() => void run(), this.config.CHAIN_TICK_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.tick;
    clearTimeout(this.timer);
  }
}
