import { EventPayload, eventKeyOf, EventTopic } from '@partner/contracts';

/** A row of a service's `outbox_messages` table, written in the same transaction as the change it reports. */
export interface OutboxMessage<T extends EventTopic = EventTopic> {
  topic: T;
  key: string;
  payload: EventPayload<T>;
}

/**
 * Builds an outbox row; typed so that a payload that does not belong to the topic does not compile. Its
 * key comes from the topic's contract, so an event's partition (and so its order) is never written by hand.
 */
export function outboxMessage<T extends EventTopic>(topic: T, payload: EventPayload<T>): OutboxMessage<T> {
  return { topic, key: eventKeyOf(topic, payload), payload };
}
