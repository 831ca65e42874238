import { Injectable, Logger } from '@nestjs/common';
import { FeedEvent } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

/** Projects a domain event into its partner's feed, exactly once per event id, with the partner's next sequence. */
@Injectable()
export class ProjectFeedEventUseCase {
  private readonly logger = new Logger(ProjectFeedEventUseCase.name);

  constructor(private readonly feed: FeedEventRepository) {}

  /** The sequence given to the event, or undefined when it was already in the feed. */
  async execute(event: FeedEvent): Promise<number | undefined> {
    const sequence = await this.feed.insertIfAbsent(event.partner_id, event);
    if (sequence === undefined) this.logger.debug(`Event ${event.event_id} already in the feed; redelivery ignored`);
    return sequence;
  }
}
