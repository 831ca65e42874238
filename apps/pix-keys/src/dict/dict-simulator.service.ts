import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PixKeysConfig } from '../config/pix-keys.config';
import { AdvancePixKeysUseCase } from './advance-pix-keys.use-case';

/** Drives the simulated DICT on a timer; one tick at a time, never overlapping. */
@Injectable()
export class DictSimulatorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DictSimulatorService.name);
  private timer?: NodeJS.Timeout;
  private tick?: Promise<unknown>;

  constructor(private readonly config: PixKeysConfig, private readonly advance: AdvancePixKeysUseCase) {}

  onApplicationBootstrap(): void {
    // run() never rejects (a failed tick is logged), so the timer may start it detached.
    const run = async () => {
      this.tick = this.advance.execute().catch((e: Error) => this.logger.warn(`DICT tick failed, will retry: ${e.message}`));
      await this.tick;
      this.timer = setTimeout(() => void run(), this.config.PIX_DICT_TICK_MS);
    };
    this.timer = setTimeout(() => void run(), this.config.PIX_DICT_TICK_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.tick;
    clearTimeout(this.timer);
  }
}
