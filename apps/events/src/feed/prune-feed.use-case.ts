import { Injectable, Logger } from '@nestjs/common';
import { EventsConfig } from '../config/events.config';
import { FeedEventRepository } from './feed-event.repository';

const DAY_MS = 86_400_000;

/**
 * Retention: an event delivered more than FEED_RETENTION_DAYS ago is removed; an undelivered event is
 * kept however old. The remaining events keep their sequences (the counter never goes back).
 */
@Injectable()
export class PruneFeedUseCase {
  private readonly logger = new Logger(PruneFeedUseCase.name);

  constructor(
    private readonly config: EventsConfig,
    private readonly feed: FeedEventRepository,
  ) {}

  /** Removes batch after batch (FEED_PRUNE_BATCH_SIZE each, one short statement each) until none is left; answers how many. */
  async execute(now: Date): Promise<number> {
    const before = new Date(now.getTime() - this.config.FEED_RETENTION_DAYS * DAY_MS);
    let removed = 0;
    for (;;) {
      const batch = await this.feed.deleteDeliveredBefore(before, this.config.FEED_PRUNE_BATCH_SIZE);
      removed += batch;
      if (batch < this.config.FEED_PRUNE_BATCH_SIZE) break;
    }
    if (removed > 0) this.logger.log(`Pruned ${removed} event(s) delivered over ${this.config.FEED_RETENTION_DAYS} days ago`);
    return removed;
  }
}
