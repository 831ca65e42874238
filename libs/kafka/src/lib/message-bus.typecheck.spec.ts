import { Topics } from '@partner/contracts';
import { MessageBus } from './message-bus';
import { outboxMessage } from './outbox';

// Compile-time contract checks: `npm test` type-checks spec files with tsc, and each @ts-expect-error
// line fails that check if the wrong payload ever becomes accepted on a topic.
describe('topic-to-payload typing', () => {
  it('rejects payloads that do not belong to the topic (checked by tsc)', () => {
    const bus = {} as MessageBus;
    const typed = () => {
      // @ts-expect-error a ping is not a withdrawal command
      void bus.request(Topics.WithdrawalsCreate, { sent_at: new Date().toISOString() });
      // @ts-expect-error event topics are not request topics
      void bus.request(Topics.WithdrawalStateChanged, {} as never);
      // @ts-expect-error an outbox row must carry the topic's event payload
      outboxMessage(Topics.WithdrawalStateChanged, { sent_at: 'x' });
    };
    expect(typeof typed).toBe('function');
  });
});
