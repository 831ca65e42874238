import { Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { MessageBus } from './message-bus';

// Type tests (*.type-spec.ts): tsc checks them with the workspace (`npm test`'s typecheck), Jest never
// runs them. Each @ts-expect-error line fails that check if the wrong payload ever becomes accepted on a
// topic. Never called: only its types matter.
export function topicPayloadTyping(bus: MessageBus): void {
  // @ts-expect-error a ping is not a withdrawal command
  void bus.request(Topics.WithdrawalsCreate, { sent_at: new Date().toISOString() });
  // @ts-expect-error event topics are not request topics
  void bus.request(Topics.WithdrawalStateChanged, {} as never);
  // @ts-expect-error an outbox row must carry the topic's event payload
  outboxMessage(Topics.WithdrawalStateChanged, { sent_at: 'x' });
}
