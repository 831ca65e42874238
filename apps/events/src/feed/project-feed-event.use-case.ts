import { Injectable, Logger } from '@nestjs/common';
import { FeedEvent } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

/** Projects a domain event into its partner's feed, exactly once per event id. */
@Injectable()
export class ProjectFeedEventUseCase {
  private readonly logger = new Logger(ProjectFeedEventUseCase.name);

  constructor(private readonly feed: FeedEventRepository) {}

  async execute(event: FeedEvent): Promise<void> {
    const stored = await this.feed.insertIfAbsent(event.partner_id, event);
    if (!stored) this.logger.debug(`Event ${event.event_id} already in the feed; redelivery ignored`);
  }
}
