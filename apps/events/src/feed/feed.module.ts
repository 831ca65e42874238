import { Module } from '@nestjs/common';
import { FeedEventRepository } from './feed-event.repository';
import { FeedQueriesHandler } from './feed-queries.handler';
import { ListEventsUseCase } from './list-events.use-case';
import { MarkEventDeliveredUseCase } from './mark-event-delivered.use-case';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';
import { DomainEventsHandler } from './domain-events.handler';

@Module({
  controllers: [DomainEventsHandler, FeedQueriesHandler],
  providers: [FeedEventRepository, ProjectFeedEventUseCase, ListEventsUseCase, MarkEventDeliveredUseCase],
})
export class FeedModule {}
