import { loadConfig } from '@partner/config';
import {
  encodeEventsCursor,
  FeedEvent,
  FeedEventType,
  ListEventsQuery,
  ListEventsResult,
  PartnerEvent,
  PartnerId,
} from '@partner/contracts';
import { requireEnv, withdrawalStateChanged, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { EventsConfig } from '../config/events.config';
import { FeedEventRepository } from './feed-event.repository';
import { ListEventsUseCase } from './list-events.use-case';

// Integration against the real `events` schema; each test has partners of its own.
const config = loadConfig(EventsConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') });
const db = new Database(config, DB_SCHEMA);
const feed = new FeedEventRepository(db);
const useCase = new ListEventsUseCase(feed);

afterAll(() => db.close());

/** A feed event of the given type (the repository stores any valid envelope). */
function eventOf(partnerId: PartnerId, type: FeedEventType): FeedEvent {
  return { ...withdrawalStateChanged(partnerId), type };
}

async function store(partnerId: PartnerId, types: FeedEventType[]): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (const type of types) {
    const event = eventOf(partnerId, type);
    await feed.insertIfAbsent(partnerId, event);
    events.push(event);
  }
  return events;
}

async function page(query: ListEventsQuery): Promise<ListEventsResult> {
  const reply = await useCase.execute(query);
  if (!reply.ok) throw new Error(`unexpected failure ${JSON.stringify(reply.error)}`);
  return reply.data;
}

const idsOf = (events: Array<PartnerEvent | FeedEvent>) => events.map((e) => ('event_id' in e ? e.event_id : e.id));

describe('ListEventsUseCase (PostgreSQL)', () => {
  it('pages through 250 events 100 at a time: each event exactly once, in sequence order', async () => {
    // Stored one by one through the projection, so a slow machine gets more than the default 5 s.
    const partnerId = testPartnerId();
    const stored = await store(
      partnerId,
      Array.from({ length: 250 }, () => 'usdt_withdrawal' as const),
    );

    const seen: PartnerEvent[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { events, next_cursor } = await page({ partner_id: partnerId, limit: 100, cursor });
      sizes.push(events.length);
      if (events.length === 0) {
        expect(next_cursor).toBe(cursor);
        break;
      }
      seen.push(...events);
      cursor = next_cursor;
    }

    expect(sizes).toEqual([100, 100, 50, 0]);
    expect(idsOf(seen)).toEqual(idsOf(stored));
    expect(seen.map((e) => e.sequence)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  }, 60_000);

  it('resumes after new events arrive: the last cursor of an exhausted feed yields exactly the new ones', async () => {
    const partnerId = testPartnerId();
    await store(partnerId, ['pix_key', 'pix_in']);
    const first = await page({ partner_id: partnerId });
    expect(first.events.map((e) => e.sequence)).toEqual([1, 2]);

    const later = await store(partnerId, ['business_customer']);
    const next = await page({ partner_id: partnerId, cursor: first.next_cursor });

    expect(idsOf(next.events)).toEqual(idsOf(later));
    expect(next.next_cursor).toBe(encodeEventsCursor(3));
  });

  it('without a cursor starts at the beginning, and an empty feed answers a cursor for the start', async () => {
    const partnerId = testPartnerId();
    const empty = await page({ partner_id: partnerId });
    expect(empty).toEqual({ events: [], next_cursor: encodeEventsCursor(0) });

    const [event] = await store(partnerId, ['pix_key']);
    const fromStart = await page({ partner_id: partnerId, cursor: empty.next_cursor });
    expect(idsOf(fromStart.events)).toEqual([event.event_id]);
  });

  it('combines the type and delivered filters, with the cursor following the filtered page', async () => {
    const partnerId = testPartnerId();
    const [w1, k1, w2, k2, w3] = await store(partnerId, ['usdt_withdrawal', 'pix_key', 'usdt_withdrawal', 'pix_key', 'usdt_withdrawal']);
    await feed.markDelivered(partnerId, w2.event_id);

    expect(idsOf((await page({ partner_id: partnerId, type: 'pix_key' })).events)).toEqual(idsOf([k1, k2]));
    expect(idsOf((await page({ partner_id: partnerId, type: 'usdt_withdrawal', delivered: false })).events)).toEqual(idsOf([w1, w3]));
    expect(idsOf((await page({ partner_id: partnerId, type: 'usdt_withdrawal', delivered: true })).events)).toEqual(idsOf([w2]));
    expect((await page({ partner_id: partnerId, type: 'pix_in' })).events).toEqual([]);

    const firstPage = await page({ partner_id: partnerId, type: 'usdt_withdrawal', delivered: false, limit: 1 });
    expect(idsOf(firstPage.events)).toEqual([w1.event_id]);
    const secondPage = await page({
      partner_id: partnerId,
      type: 'usdt_withdrawal',
      delivered: false,
      limit: 1,
      cursor: firstPage.next_cursor,
    });
    expect(idsOf(secondPage.events)).toEqual([w3.event_id]);
    expect(secondPage.events[0].sequence).toBe(5);
  });

  it('refuses a cursor it did not issue with invalid_request on field cursor', async () => {
    for (const cursor of ['not a cursor', Buffer.from('-1').toString('base64url'), Buffer.from('abc').toString('base64url')]) {
      expect(await useCase.execute({ partner_id: testPartnerId(), cursor })).toEqual({
        ok: false,
        error: { code: 'invalid_request', message: expect.any(String), field: 'cursor' },
      });
    }
  });
});
