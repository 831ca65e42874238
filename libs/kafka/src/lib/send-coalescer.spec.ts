import { Producer, ProducerBatch } from 'kafkajs';
import { SendCoalescer } from './send-coalescer';

/** A producer that records each produce request it is asked to make, and fails when told to. */
function recordingProducer(fail = false) {
  const batches: ProducerBatch[] = [];
  const producer: Pick<Producer, 'sendBatch'> = {
    sendBatch: async (batch: ProducerBatch) => {
      batches.push(batch);
      if (fail) throw new Error('broker down');
      return [];
    },
  };
  return { producer, batches };
}

describe('SendCoalescer', () => {
  it('sends what was sent in one turn of the event loop as one produce request, grouped by topic, in order', async () => {
    const { producer, batches } = recordingProducer();
    const coalescer = new SendCoalescer(producer, -1);
    await Promise.all([
      coalescer.send('a', { value: '1' }),
      coalescer.send('b', { value: '2' }),
      coalescer.send('a', { value: '3' }),
    ]);
    await coalescer.send('a', { value: '4' });
    expect(batches).toHaveLength(2);
    expect(batches[0].acks).toBe(-1);
    expect(batches[0].topicMessages).toEqual([
      { topic: 'a', messages: [{ value: '1' }, { value: '3' }] },
      { topic: 'b', messages: [{ value: '2' }] },
    ]);
  });

  it('tells every sender of a failed request that its message was not acknowledged', async () => {
    const { producer } = recordingProducer(true);
    const coalescer = new SendCoalescer(producer, 1);
    const results = await Promise.allSettled([coalescer.send('a', { value: '1' }), coalescer.send('a', { value: '2' })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
