import { Module } from '@nestjs/common';
import { AckEventsUseCase } from './ack-events.use-case';
import { DomainEventsHandler } from './domain-events.handler';
import { FeedEventRepository } from './feed-event.repository';
import { FeedQueriesHandler } from './feed-queries.handler';
import { FeedRetentionService } from './feed-retention.service';
import { ListEventsUseCase } from './list-events.use-case';
import { MarkEventDeliveredUseCase } from './mark-event-delivered.use-case';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';
import { PruneFeedUseCase } from './prune-feed.use-case';

@Module({
  controllers: [DomainEventsHandler, FeedQueriesHandler],
  providers: [
    FeedEventRepository,
    ProjectFeedEventUseCase,
    ListEventsUseCase,
    MarkEventDeliveredUseCase,
    AckEventsUseCase,
    PruneFeedUseCase,
    FeedRetentionService,
  ],
})
export class FeedModule {}
