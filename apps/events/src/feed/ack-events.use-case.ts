import { Injectable } from '@nestjs/common';
import { AckEventsCommand, ok, RequestReply, Topics } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

/** Bulk acknowledgement: marks the partner's given events delivered; the rest are reported, never touched. */
@Injectable()
export class AckEventsUseCase {
  constructor(private readonly feed: FeedEventRepository) {}

  async execute(command: AckEventsCommand, now = new Date()): Promise<RequestReply<typeof Topics.EventsAck>> {
    const ids = [...new Set(command.ids.map((id) => id.toLowerCase()))];
    const found = await this.feed.markManyDelivered(command.partner_id, ids, now);
    return ok({ acknowledged: found.size, not_found: ids.filter((id) => !found.has(id)) });
  }
}
