import { PartnerClient } from '../partner-client';
import type { PartnerEvent } from '../sdk.types';
import { TestServer, type Received } from '../test-server.spec-support';

// The feed helpers against a real local HTTP server: the stream's polling, backoff and stop, and acks.

let server: TestServer;
beforeAll(async () => (server = await new TestServer().start()));
afterAll(() => server.stop());

const client = () => new PartnerClient({ baseUrl: server.url, apiKey: 'pk_test', retry: { baseDelayMs: 5, maxAttempts: 2 } });
const query = (r: Received) => Object.fromEntries(new URL(r.url, 'http://x').searchParams);
/** A complete usdt_withdrawal event of the feed, the n-th. */
const event = (n: number): PartnerEvent => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  sequence: n,
  type: 'usdt_withdrawal',
  state: 'created',
  resource_id: String(n),
  created_at: 1_795_315_285,
  delivered: false,
  request_id: null,
  data: {
    id: n,
    document: '52998224725',
    idempotency_key: `withdrawal-${n}`,
    address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    network: 'MATIC',
    fee_choice: 'LOW',
    usdtmicros: 1_000_000,
    fee_micros: 20_000,
    state: 'created',
    tx_hash: null,
    block_number: null,
    failure_reason: null,
    created_at: 1_795_315_285,
    last_updated_at: 1_795_315_285,
  },
});
const page = (cursor: string, ...events: PartnerEvent[]) => ({ body: { events, next_cursor: cursor } });

describe('events.stream', () => {
  it('yields the undelivered events once each, following the cursor, and waits longer at each empty poll', async () => {
    server.script(page('2', event(1), event(2)), page('2'), page('2'), page('3', event(3)), page('3'));
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const e of client().events.stream({ signal: controller.signal, type: 'usdt_withdrawal', limit: 50, pollIntervalMs: 40 })) {
      seen.push(e.sequence);
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(server.received.map(query)).toEqual([
      { delivered: 'false', type: 'usdt_withdrawal', limit: '50' },
      { delivered: 'false', type: 'usdt_withdrawal', limit: '50', cursor: '2' },
      { delivered: 'false', type: 'usdt_withdrawal', limit: '50', cursor: '2' },
      { delivered: 'false', type: 'usdt_withdrawal', limit: '50', cursor: '2' },
    ]);
    const [, second, third, fourth] = server.received.map((r) => r.at);
    expect(third - second).toBeGreaterThanOrEqual(40); // first empty poll: 40 ms
    expect(fourth - third).toBeGreaterThanOrEqual(80); // second: doubled
  });

  it('ends cleanly when aborted while waiting on an empty feed', async () => {
    server.script(page('1'));
    const controller = new AbortController();
    const stream = client().events.stream({ signal: controller.signal, pollIntervalMs: 60_000 });
    const next = stream.next();
    await pollFor(() => server.received.length === 1);
    controller.abort();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
  });

  it('waits out a 503 or a lost connection (its own retries spent), but throws a 401', async () => {
    const unavailable = { status: 503, body: { error: 'service_unavailable', message: 'later' } };
    server.script(unavailable, unavailable, { destroy: true }, { destroy: true }, page('1', event(1)));
    const controller = new AbortController();
    for await (const e of client().events.stream({ signal: controller.signal, pollIntervalMs: 10 })) {
      expect(e.sequence).toBe(1);
      controller.abort();
    }
    expect(server.received).toHaveLength(5);

    server.script({ status: 401, body: { error: 'unauthorized', message: 'no such key' } });
    await expect(client().events.stream({ pollIntervalMs: 10 }).next()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('events.ack and ackMany', () => {
  it('ack: PATCH of the event (or its id)', async () => {
    server.script({ body: {} });
    await client().events.ack(event(1));
    await client().events.ack('00000000-0000-4000-8000-000000000002');
    expect(server.received.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PATCH', '/partner/v1/events/00000000-0000-4000-8000-000000000001', undefined],
      ['PATCH', '/partner/v1/events/00000000-0000-4000-8000-000000000002', undefined],
    ]);
  });

  it('ackMany: POST /events/ack, 1000 ids per call, totals summed', async () => {
    server.script((r) => ({ body: { acknowledged: (r.body as { ids: string[] }).ids.length - 1, not_found: ['x'] } }));
    const ids = Array.from({ length: 1_500 }, (_, i) => `id-${i}`);
    await expect(client().events.ackMany(ids)).resolves.toEqual({ acknowledged: 1_498, not_found: ['x', 'x'] });
    expect(server.received.map((r) => [r.method, r.url, (r.body as { ids: string[] }).ids.length])).toEqual([
      ['POST', '/partner/v1/events/ack', 1_000],
      ['POST', '/partner/v1/events/ack', 500],
    ]);
  });
});

async function pollFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
