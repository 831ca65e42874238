import { Injectable } from '@nestjs/common';
import { AckEventsRequest, AckEventsResult, ListEventsRequest, ListEventsResult, PartnerId, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class ListEventsUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, query: ListEventsRequest): Promise<ListEventsResult> {
    // A read needs no order: unkeyed, reads spread over partitions and run side by side.
    return unwrap(await this.bus.request(Topics.EventsList, { ...query, partner_id: partnerId }));
  }
}

@Injectable()
export class MarkEventDeliveredUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, eventId: string): Promise<Record<string, never>> {
    return unwrap(await this.bus.request(Topics.EventsMarkDelivered, { partner_id: partnerId, event_id: eventId }, partnerId));
  }
}

@Injectable()
export class AckEventsUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, body: AckEventsRequest): Promise<AckEventsResult> {
    return unwrap(await this.bus.request(Topics.EventsAck, { ids: body.ids, partner_id: partnerId }, partnerId));
  }
}
