import { Injectable, Logger } from '@nestjs/common';
import { FeedEvent } from '@partner/contracts';
import { MicroBatcher } from '@partner/platform';
import { EventsConfig } from '../config/events.config';
import { FeedEntry, FeedEventRepository } from './feed-event.repository';

/**
 * Projects a domain event into its partner's feed, exactly once per event id, with the partner's next sequence.
 *
 * Calls are batched: every event handed over while a projection transaction is running (Kafka handlers
 * with several messages in flight) goes into the next transaction together, so the cost per event is a
 * share of one transaction instead of one each. A caller still waits for its own event to be committed.
 * A failed batch is retried event by event once (see MicroBatcher), so one bad event cannot hold up the
 * others; an event failing alone rejects, and Kafka redelivers it.
 */
@Injectable()
export class ProjectFeedEventUseCase {
  private readonly logger = new Logger(ProjectFeedEventUseCase.name);
  private readonly batcher: MicroBatcher<FeedEntry, number | undefined>;

  constructor(
    private readonly feed: FeedEventRepository,
    config: EventsConfig,
  ) {
    this.batcher = new MicroBatcher((events) => this.feed.insertBatch(events), {
      maxBatchSize: config.FEED_PROJECTION_BATCH_SIZE,
      onBatchError: (error, size) =>
        this.logger.warn(`Projection of a batch of ${size} events failed, retrying each alone: ${(error as Error).message}`),
    });
  }

  /**
   * The sequence given to the event, or undefined when it was already in the feed. `requestId`: the
   * request that caused the event (null when none did: a timer's move), shown on the feed event.
   */
  async execute(event: FeedEvent, requestId: string | null = null): Promise<number | undefined> {
    const sequence = await this.batcher.submit({ ...event, request_id: requestId });
    if (sequence === undefined) this.logger.debug(`Event ${event.event_id} already in the feed; redelivery ignored`);
    return sequence;
  }
}
