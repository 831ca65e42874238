import { Controller } from '@nestjs/common';
import { AckEventsCommand, ListEventsQuery, MarkEventDeliveredCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { AckEventsUseCase } from './ack-events.use-case';
import { ListEventsUseCase } from './list-events.use-case';
import { MarkEventDeliveredUseCase } from './mark-event-delivered.use-case';

/** The gateway's questions about a partner's feed. */
@Controller()
export class FeedQueriesHandler {
  constructor(
    private readonly listEvents: ListEventsUseCase,
    private readonly markDelivered: MarkEventDeliveredUseCase,
    private readonly ackEvents: AckEventsUseCase,
  ) {}

  @HandleRequest(Topics.EventsList)
  list(query: ListEventsQuery): Promise<RequestReply<typeof Topics.EventsList>> {
    return this.listEvents.execute(query);
  }

  @HandleRequest(Topics.EventsMarkDelivered)
  mark(command: MarkEventDeliveredCommand): Promise<RequestReply<typeof Topics.EventsMarkDelivered>> {
    return this.markDelivered.execute(command);
  }

  @HandleRequest(Topics.EventsAck)
  ack(command: AckEventsCommand): Promise<RequestReply<typeof Topics.EventsAck>> {
    return this.ackEvents.execute(command);
  }
}
