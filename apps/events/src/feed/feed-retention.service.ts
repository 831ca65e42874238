import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EventsConfig } from '../config/events.config';
import { PruneFeedUseCase } from './prune-feed.use-case';

/** A first prune shortly after start (not a whole interval later), so a restarted service is never behind on retention. */
const FIRST_RUN_AFTER_MS = 10_000;

/** Prunes the feed on a timer; one run at a time, never overlapping. */
@Injectable()
export class FeedRetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(FeedRetentionService.name);
  private timer?: NodeJS.Timeout;
  private run?: Promise<unknown>;

  constructor(private readonly config: EventsConfig, private readonly prune: PruneFeedUseCase) {}

  onApplicationBootstrap(): void {
    // tick() never rejects (a failed run is logged), so the timer may start it detached.
    const tick = async () => {
      this.run = this.prune.execute(new Date()).catch((e: Error) => this.logger.warn(`Feed pruning failed, will retry: ${e.message}`));
      await this.run;
      this.timer = setTimeout(() => void tick(), this.config.FEED_PRUNE_INTERVAL_MS);
    };
    this.timer = setTimeout(() => void tick(), Math.min(FIRST_RUN_AFTER_MS, this.config.FEED_PRUNE_INTERVAL_MS));
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.run;
    clearTimeout(this.timer);
  }
}
