import { Topics } from '@partner/contracts';
import { answer, requestHandlers } from '@partner/kafka';
import { AckEventsUseCase } from './ack-events.use-case';
import { ListEventsUseCase } from './list-events.use-case';
import { MarkEventDeliveredUseCase } from './mark-event-delivered.use-case';

/** The gateway's questions about a partner's feed. */
export const FeedQueriesHandler = requestHandlers('FeedQueriesHandler', [
  answer(Topics.EventsList, ListEventsUseCase),
  answer(Topics.EventsMarkDelivered, MarkEventDeliveredUseCase),
  answer(Topics.EventsAck, AckEventsUseCase),
]);
