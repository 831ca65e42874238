import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { EventsConfig } from '../config/events.config';
import { PruneFeedUseCase } from './prune-feed.use-case';

/** A first prune shortly after start (not a whole interval later), so a restarted service is never behind on retention. */
const FIRST_RUN_AFTER_MS = 10_000;

/** Prunes the feed on a timer. */
@Injectable()
export class FeedRetentionService extends PeriodicJobService {
  constructor(config: EventsConfig, prune: PruneFeedUseCase) {
    super({
      name: 'feed-retention',
      intervalMs: config.FEED_PRUNE_INTERVAL_MS,
      firstRunAfterMs: Math.min(FIRST_RUN_AFTER_MS, config.FEED_PRUNE_INTERVAL_MS),
      run: () => prune.execute(new Date()),
    });
  }
}
