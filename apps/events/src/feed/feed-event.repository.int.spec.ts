import { loadConfig } from '@partner/config';
import { WithdrawalStateChangedEvent, WithdrawalState, PartnerId } from '@partner/contracts';
import { newUuid, requireEnv, selectCount, selectRow, selectRows, withdrawalStateChanged, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { EventsConfig } from '../config/events.config';
import { FeedEventRepository } from './feed-event.repository';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';
import { DomainEventsHandler } from './domain-events.handler';

// Integration: the real `events` schema in PostgreSQL (npm test migrates it). Every test works with
// partners of its own, so the shared table can hold anything else.
const config = loadConfig(EventsConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') });
const db = new Database(config, DB_SCHEMA);
const feed = new FeedEventRepository(db);

afterAll(() => db.close());

let resourceSeq = 1;

/** A valid withdrawal event; `minutesAgo` sets occurred_at, so tests can make it disagree with insertion order. */
function withdrawalEvent(partnerId: PartnerId, state: WithdrawalState = 'created', minutesAgo = 0): WithdrawalStateChangedEvent {
  return withdrawalStateChanged(partnerId, {
    resourceId: resourceSeq++,
    state,
    at: new Date(Date.UTC(2026, 0, 1, 12) - minutesAgo * 60_000),
  });
}

/** Stores `count` events for a new partner, the later ones with earlier occurred_at: only insertion order sorts them right. */
async function storeEvents(partnerId: PartnerId, count: number): Promise<WithdrawalStateChangedEvent[]> {
  const events: WithdrawalStateChangedEvent[] = [];
  for (let i = 0; i < count; i++) {
    const event = withdrawalEvent(partnerId, 'created', i * 10);
    expect(await feed.insertIfAbsent(partnerId, event)).toBe(i + 1);
    events.push(event);
  }
  return events;
}

const countById = (id: string) => selectCount(db, 'SELECT count(*) FROM feed_events WHERE id = $1', [id]);
const deliveredAt = async (id: string) =>
  (await selectRow<{ delivered_at: Date | null }>(db, 'SELECT delivered_at FROM feed_events WHERE id = $1', [id])).delivered_at;

const ids = (events: Array<{ id: string } | { event_id: string }>) => events.map((e) => ('id' in e ? e.id : e.event_id));

describe('FeedEventRepository (PostgreSQL)', () => {
  it('stores an event once: the same event id again is a no-op', async () => {
    const partnerId = testPartnerId();
    const event = withdrawalEvent(partnerId);

    expect(await feed.insertIfAbsent(partnerId, event)).toBe(1);
    expect(await feed.insertIfAbsent(partnerId, { ...event, state: 'sent' })).toBeUndefined();

    expect(await countById(event.event_id)).toBe(1);
    expect(await feed.list(partnerId, {})).toEqual([
      {
        id: event.event_id,
        sequence: 1,
        type: 'usdt_withdrawal',
        state: 'created',
        resource_id: event.resource_id,
        created_at: Math.floor(Date.parse(event.occurred_at) / 1000),
        delivered: false,
        request_id: null,
        data: event.resource,
      },
    ]);
  });

  it('keeps the id of the request that caused an event, null when none did', async () => {
    const partnerId = testPartnerId();
    const caused = withdrawalEvent(partnerId);
    const moved = withdrawalEvent(partnerId);
    await feed.insertBatch([{ ...caused, request_id: 'abc-123' }, moved]);

    expect((await feed.list(partnerId, {})).map((e) => [e.id, e.request_id])).toEqual([
      [caused.event_id, 'abc-123'],
      [moved.event_id, null],
    ]);
  });

  it("lists only the partner's own events, in insertion order whatever occurred_at says", async () => {
    const partnerId = testPartnerId();
    const events = await storeEvents(partnerId, 4);
    await storeEvents(testPartnerId(), 2);

    expect(ids(await feed.list(partnerId, {}))).toEqual(ids(events));
    expect(await feed.list(testPartnerId(), {})).toEqual([]);
  });

  it('filters by delivered (true, false, or either) and honours limit', async () => {
    const partnerId = testPartnerId();
    const [a, b, c, d] = await storeEvents(partnerId, 4);
    expect(await feed.markDelivered(partnerId, b.event_id)).toBe(true);
    expect(await feed.markDelivered(partnerId, d.event_id)).toBe(true);

    expect(ids(await feed.list(partnerId, { delivered: true }))).toEqual(ids([b, d]));
    expect(ids(await feed.list(partnerId, { delivered: false }))).toEqual(ids([a, c]));
    expect(ids(await feed.list(partnerId, { delivered: undefined }))).toEqual(ids([a, b, c, d]));
    expect((await feed.list(partnerId, { delivered: true })).every((e) => e.delivered)).toBe(true);

    expect(ids(await feed.list(partnerId, { limit: 2 }))).toEqual(ids([a, b]));
    expect(ids(await feed.list(partnerId, { delivered: false, limit: 1 }))).toEqual(ids([a]));
  });

  it('marks delivered idempotently, keeping the first delivery time', async () => {
    const partnerId = testPartnerId();
    const [event] = await storeEvents(partnerId, 1);

    expect(await feed.markDelivered(partnerId, event.event_id)).toBe(true);
    const first = await deliveredAt(event.event_id);
    expect(await feed.markDelivered(partnerId, event.event_id)).toBe(true);
    const second = await deliveredAt(event.event_id);

    expect(first).toBeInstanceOf(Date);
    expect(second).toEqual(first);
  });

  it("refuses another partner's event and an unknown id, and leaves the owner's event untouched", async () => {
    const owner = testPartnerId();
    const [event] = await storeEvents(owner, 1);

    expect(await feed.markDelivered(testPartnerId(), event.event_id)).toBe(false);
    expect(await feed.markDelivered(owner, newUuid())).toBe(false);

    expect(await feed.list(owner, {})).toEqual([expect.objectContaining({ id: event.event_id, delivered: false })]);
  });
});

describe('DomainEventsHandler -> ProjectFeedEventUseCase (PostgreSQL)', () => {
  const handler = new DomainEventsHandler(new ProjectFeedEventUseCase(feed, config));

  it("projects a valid event into its partner's feed once, however often it is delivered", async () => {
    const partnerId = testPartnerId();
    const event = withdrawalEvent(partnerId, 'settled');

    await handler.withdrawal(event);
    await handler.withdrawal(event);

    expect(await feed.list(partnerId, {})).toEqual([
      expect.objectContaining({ id: event.event_id, type: 'usdt_withdrawal', state: 'settled', resource_id: event.resource_id }),
    ]);
  });

  it('refuses an invalid event as unprocessable (the transport parks it as a dead letter), storing nothing', async () => {
    const partnerId = testPartnerId();

    await expect(handler.withdrawal({ ...withdrawalEvent(partnerId), occurred_at: 'yesterday' })).rejects.toMatchObject({
      name: 'UnprocessableEventError',
    });

    expect(await feed.list(partnerId, {})).toEqual([]);
  });
});

describe('per-partner sequence under concurrency (PostgreSQL)', () => {
  const project = new ProjectFeedEventUseCase(feed, config);

  it('numbers 50 events of one partner projected at once exactly 1..50, each event once', async () => {
    const partnerId = testPartnerId();
    const events = Array.from({ length: 50 }, () => withdrawalEvent(partnerId));

    const given = await Promise.all(events.map((e) => project.execute(e)));

    const numbers = [...given].sort((x, y) => (x ?? 0) - (y ?? 0));
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const stored = await feed.list(partnerId, { limit: 1000 });
    expect(stored.map((e) => e.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(stored.map((e) => e.id))).toEqual(new Set(ids(events)));
    // The sequence each projection answered is the one stored with its event.
    const byId = new Map(stored.map((e) => [e.id, e.sequence]));
    events.forEach((e, i) => expect(byId.get(e.event_id)).toBe(given[i]));
  }, 30_000);

  it('stores an event redelivered 10 times at once once, consuming one number only', async () => {
    const partnerId = testPartnerId();
    const [first] = await storeEvents(partnerId, 1);
    const event = withdrawalEvent(partnerId);

    const given = await Promise.all(Array.from({ length: 10 }, () => project.execute(event)));

    expect(given.filter((n) => n !== undefined)).toEqual([2]);
    expect(await countById(event.event_id)).toBe(1);
    const next = withdrawalEvent(partnerId);
    expect(await project.execute(next)).toBe(3);
    expect((await feed.list(partnerId, {})).map((e) => [e.id, e.sequence])).toEqual([
      [first.event_id, 1],
      [event.event_id, 2],
      [next.event_id, 3],
    ]);
    expect(await selectRows(db, 'SELECT * FROM partner_sequences WHERE partner_id = $1', [partnerId])).toEqual([
      { partner_id: partnerId, last_sequence: '3' },
    ]);
  });

  it('numbers each partner on its own', async () => {
    const [a, b] = [testPartnerId(), testPartnerId()];
    await Promise.all([storeEvents(a, 3), storeEvents(b, 2)]);

    expect((await feed.list(a, {})).map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect((await feed.list(b, {})).map((e) => e.sequence)).toEqual([1, 2]);
  });
});
