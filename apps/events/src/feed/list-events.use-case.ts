import { Injectable } from '@nestjs/common';
import { decodeEventsCursor, encodeEventsCursor, fail, ListEventsQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

@Injectable()
export class ListEventsUseCase {
  constructor(private readonly feed: FeedEventRepository) {}

  async execute(query: ListEventsQuery): Promise<RequestReply<typeof Topics.EventsList>> {
    const after = query.cursor === undefined ? 0 : decodeEventsCursor(query.cursor);
    if (after === undefined) return fail('invalid_request', 'cursor must be a next_cursor returned by this endpoint', 'cursor');
    const events = await this.feed.list(query.partner_id, {
      delivered: query.delivered,
      type: query.type,
      afterSequence: after,
      limit: query.limit,
    });
    // An empty page resumes where it was asked from: the events still to come will be after it.
    const last = events.length > 0 ? events[events.length - 1].sequence : after;
    return ok({ events, next_cursor: encodeEventsCursor(last) });
  }
}
