import { Injectable } from '@nestjs/common';
import { fail, MarkEventDeliveredCommand, MarkEventDeliveredResult, ok, Reply } from '@partner/contracts';
import { FeedEventRepository } from './feed-event.repository';

@Injectable()
export class MarkEventDeliveredUseCase {
  constructor(private readonly feed: FeedEventRepository) {}

  async execute(command: MarkEventDeliveredCommand): Promise<Reply<MarkEventDeliveredResult>> {
    const found = await this.feed.markDelivered(command.partner_id, command.event_id);
    return found ? ok({}) : fail('not_found', `no event ${command.event_id}`);
  }
}
