import { Injectable } from '@nestjs/common';
import { fail, MarkEventDeliveredCommand, ok, RequestReply, Topics } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

@Injectable()
export class MarkEventDeliveredUseCase {
  constructor(private readonly feed: FeedEventRepository) {}

  async execute(command: MarkEventDeliveredCommand): Promise<RequestReply<typeof Topics.EventsMarkDelivered>> {
    const found = await this.feed.markDelivered(command.partner_id, command.event_id);
    return found ? ok({}) : fail('not_found', `no event ${command.event_id}`);
  }
}
