import { BusProducer, TopicMessages } from './kafka-port';

/** One produce request as the producer was asked for it. */
interface ProducerBatch {
  acks: -1 | 1;
  topicMessages: TopicMessages[];
}
import { SendCoalescer } from './send-coalescer';

/** A producer that records each produce request it is asked to make, and fails while `failing()` says so. */
function recordingProducer(fail = false, failing = () => fail) {
  const batches: ProducerBatch[] = [];
  const producer: Pick<BusProducer, 'sendBatch'> = {
    sendBatch: async (acks, topicMessages) => {
      batches.push({ acks, topicMessages });
      if (failing()) throw new Error('broker down');
    },
  };
  return { producer, batches };
}

describe('SendCoalescer', () => {
  it('sends what was sent in one turn of the event loop as one produce request, grouped by topic, in order', async () => {
    const { producer, batches } = recordingProducer();
    const coalescer = new SendCoalescer(producer, -1);
    await Promise.all([coalescer.send('a', { value: '1' }), coalescer.send('b', { value: '2' }), coalescer.send('a', { value: '3' })]);
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

  it('sends one request at a time: what comes while one is in flight leaves, together, once it is acknowledged', async () => {
    const batches: ProducerBatch[] = [];
    const acks: Array<() => void> = [];
    const producer: Pick<BusProducer, 'sendBatch'> = {
      sendBatch: (ack, topicMessages) => {
        batches.push({ acks: ack, topicMessages });
        return new Promise((resolve) => acks.push(() => resolve()));
      },
    };
    const coalescer = new SendCoalescer(producer, -1);
    const first = coalescer.send('a', { value: '1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toHaveLength(1);
    const second = coalescer.send('a', { value: '2' });
    await new Promise((resolve) => setImmediate(resolve));
    const third = coalescer.send('b', { value: '3' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toHaveLength(1); // the first is not acknowledged yet
    acks[0]();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toHaveLength(2);
    expect(batches[1].topicMessages).toEqual([
      { topic: 'a', messages: [{ value: '2' }] },
      { topic: 'b', messages: [{ value: '3' }] },
    ]);
    acks[1]();
    await Promise.all([second, third]);
  });

  it('goes on sending after a failed request', async () => {
    let fail = true;
    const { producer, batches } = recordingProducer(true, () => fail);
    const coalescer = new SendCoalescer(producer, 1);
    await expect(coalescer.send('a', { value: '1' })).rejects.toThrow('broker down');
    fail = false;
    await coalescer.send('a', { value: '2' });
    expect(batches).toHaveLength(2);
  });
});
