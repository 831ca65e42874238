import { Logger } from '@nestjs/common';
import { DirectReplies, ReplySender } from './kafka-server';

// How a service replies, its Kafka producer replaced by a recorder; the HTTP side (internal-http's
// DirectReplySender) has its own spec, direct-replies.spec.ts.

function sender(direct?: DirectReplies) {
  const onKafka: Array<{ topic: string; value: string }> = [];
  const kafka: ConstructorParameters<typeof ReplySender>[0] = {
    send: async (topic, message) => {
      onKafka.push({ topic, value: String(message.value) });
    },
  };
  return { replies: new ReplySender(kafka, direct, new Logger('kafka-server-spec')), onKafka };
}

describe('ReplySender', () => {
  it('without direct replies, replies on the reply topic even when the request names a listener', async () => {
    const { replies, onKafka } = sender();
    await replies.send({ response: { ok: true } }, 'c-1', 'http://127.0.0.1:1/internal/v1/replies/', 'replies.gateway.x');
    expect(onKafka).toEqual([{ topic: 'replies.gateway.x', value: '{"response":{"ok":true}}' }]);
    await replies.close();
  });

  it('with direct replies, replies on the reply topic only when the listener did not take it', async () => {
    const taken: string[] = [];
    let closed = false;
    const direct: DirectReplies = {
      send: async (url, correlationId) => {
        if (url.includes('gone')) throw new Error('connection refused');
        taken.push(correlationId);
      },
      close: async () => {
        closed = true;
      },
    };
    const { replies, onKafka } = sender(direct);
    await replies.send({ response: 1 }, 'c-1', 'http://listener/internal/v1/replies/', 'replies.gateway.x');
    await replies.send({ response: 2 }, 'c-2', 'http://gone/internal/v1/replies/', 'replies.gateway.x');
    expect(taken).toEqual(['c-1']);
    expect(onKafka).toEqual([{ topic: 'replies.gateway.x', value: '{"response":2}' }]);
    await replies.close();
    expect(closed).toBe(true);
  });
});
