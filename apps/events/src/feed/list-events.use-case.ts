import { Injectable } from '@nestjs/common';
import { ListEventsQuery, ListEventsResult, ok, Reply } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

@Injectable()
export class ListEventsUseCase {
  constructor(private readonly feed: FeedEventRepository) {}

  async execute(query: ListEventsQuery): Promise<Reply<ListEventsResult>> {
    return ok({ events: await this.feed.list(query.partner_id, { delivered: query.delivered, limit: query.limit }) });
  }
}
