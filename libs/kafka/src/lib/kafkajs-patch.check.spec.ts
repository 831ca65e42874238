import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kafkajsPatchProblem, kafkajsRequestQueue, KAFKAJS_VERSION, RequestQueue as Queue, requestQueue } from './kafkajs-patch.check';

describe('kafkajs as installed: 2.2.4 with patches/kafkajs+2.2.4.patch', () => {
  const queues: Queue[] = [];
  const queue = (): Queue => {
    const q = requestQueue();
    queues.push(q);
    return q;
  };
  afterEach(() => queues.splice(0).forEach((q) => q.destroy()));

  it('is the version the patch is written against, exactly as package.json pins it', () => {
    const root = join(__dirname, '../../../..');
    const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    expect(pinned['kafkajs']).toBe(KAFKAJS_VERSION);
    expect((require('kafkajs/package.json') as { version: string }).version).toBe(KAFKAJS_VERSION);
  });

  it('leaves an idle connection without a timer after a response (as released, a 1 ms timer ran forever)', () => {
    const q = queue();
    q.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still checks again while a request waits, or while the broker throttles the connection', () => {
    const waiting = queue();
    waiting.pending.push({});
    waiting.checkPendingRequests = () => undefined; // the pending entry is a stand-in, never sent
    waiting.scheduleCheckPendingRequests();
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();

    const throttled = queue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.checkPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  });

  it('passes the start-up check', () => {
    expect(kafkajsPatchProblem()).toBeNull();
  });
});

describe('the start-up check of kafkajs', () => {
  const Patched = kafkajsRequestQueue();
  /** kafkajs's method as released: a timer armed whether or not anything waits. */
  class Released extends Patched {
    override scheduleCheckPendingRequests(): void {
      if (!this.throttleCheckTimeoutId) this.throttleCheckTimeoutId = setTimeout(() => undefined, 1);
    }
  }

  it('names another version, and an unpatched 2.2.4', () => {
    expect(kafkajsPatchProblem('2.2.3', Patched)).toBe('kafkajs 2.2.3 is installed; the project runs 2.2.4 with its patch');
    expect(kafkajsPatchProblem('2.2.4', Released)).toBe('kafkajs 2.2.4 is installed without patches/kafkajs+2.2.4.patch');
  });

  it('stops the first client of a process, with what to do, when kafkajs is not the patched 2.2.4', () => {
    jest.isolateModules(() => {
      jest.doMock('kafkajs/package.json', () => ({ version: '2.2.5' }));
      const { createKafka } = require('./kafkajs-client') as typeof import('./kafkajs-client');
      expect(() => createKafka({ brokers: ['127.0.0.1:1'], clientId: 'spec' })).toThrow(
        'kafkajs 2.2.5 is installed; the project runs 2.2.4 with its patch. Run `npm install`',
      );
    });
    jest.dontMock('kafkajs/package.json');
  });
});
