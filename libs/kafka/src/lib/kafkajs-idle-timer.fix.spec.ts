import { fixKafkajsIdleTimer, kafkajsRequestQueue, RequestQueue as Queue } from './kafkajs-idle-timer.fix';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const RequestQueue = kafkajsRequestQueue();
const queue = (): Queue =>
  new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'spec',
    broker: 'spec:9092',
    logger: silent,
  });

describe('kafkajs idle timer fix', () => {
  const original = kafkajsRequestQueue().prototype.scheduleCheckPendingRequests;
  const queues: Queue[] = [];
  afterEach(() => queues.splice(0).forEach((q) => q.destroy()));

  it('is needed: kafkajs as released arms a timer on a connection with nothing pending', () => {
    const q = queue();
    queues.push(q);
    original.call(q);
    expect(q.throttleCheckTimeoutId).not.toBeNull();
  });

  it('leaves an idle connection without a timer after a response', () => {
    expect(fixKafkajsIdleTimer()).toBe(true);
    const q = queue();
    queues.push(q);
    q.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still checks again while a request waits, or while the broker throttles the connection', () => {
    fixKafkajsIdleTimer();
    const waiting = queue();
    const throttled = queue();
    queues.push(waiting, throttled);
    waiting.pending.push({});
    waiting.checkPendingRequests = () => undefined; // the pending entry is a stand-in, never sent
    kafkajsRequestQueue().prototype.scheduleCheckPendingRequests.call(waiting);
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();

    throttled.throttledUntil = Date.now() + 60_000;
    throttled.checkPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  });

  it('is applied once, by the client factory every app uses', async () => {
    const { createKafka } = await import('./kafka-client');
    createKafka({ brokers: ['127.0.0.1:1'], clientId: 'spec' });
    expect(kafkajsRequestQueue().prototype.scheduleCheckPendingRequests).not.toBe(original);
    expect(fixKafkajsIdleTimer()).toBe(true);
  });
});
