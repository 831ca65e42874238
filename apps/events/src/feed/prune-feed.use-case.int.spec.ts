import { loadConfig } from '@partner/config';
import { requireEnv, withdrawalStateChanged, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { EventsConfig } from '../config/events.config';
import { FeedEventRepository } from './feed-event.repository';
import { PruneFeedUseCase } from './prune-feed.use-case';

// Integration against the real `events` schema. "now" is years before the other suites' events, so
// pruning relative to it can only remove the delivery dates this test back-dates.
const config = loadConfig(EventsConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL'), FEED_RETENTION_DAYS: '30' });
const db = new Database(config, DB_SCHEMA);
const feed = new FeedEventRepository(db);
const useCase = new PruneFeedUseCase(config, feed);

afterAll(() => db.close());

const NOW = new Date('2020-06-30T12:00:00Z');
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

describe('PruneFeedUseCase (PostgreSQL)', () => {
  it('removes events delivered over FEED_RETENTION_DAYS ago, keeps undelivered and recent ones, and keeps sequences', async () => {
    const partnerId = testPartnerId();
    const events = Array.from({ length: 5 }, () => withdrawalStateChanged(partnerId));
    for (const e of events) await feed.insertIfAbsent(partnerId, e);
    const [old, borderline, recent, undelivered, ancientUndelivered] = events;
    await feed.markManyDelivered(partnerId, [old.event_id], daysBefore(31));
    await feed.markManyDelivered(partnerId, [borderline.event_id], daysBefore(30));
    await feed.markManyDelivered(partnerId, [recent.event_id], daysBefore(1));
    const backdated = await db.query('UPDATE feed_events SET occurred_at = $2 WHERE id = $1', [
      ancientUndelivered.event_id,
      daysBefore(400),
    ]);
    expect(backdated.rowCount).toBe(1);

    expect(await useCase.execute(NOW)).toBe(1);

    expect((await feed.list(partnerId, {})).map((e) => [e.id, e.sequence])).toEqual([
      [borderline.event_id, 2],
      [recent.event_id, 3],
      [undelivered.event_id, 4],
      [ancientUndelivered.event_id, 5],
    ]);
    // Numbering continues after pruning: no number is reused.
    expect(await feed.insertIfAbsent(partnerId, withdrawalStateChanged(partnerId))).toBe(6);
    expect(await useCase.execute(NOW)).toBe(0);
  });

  it('prunes a backlog larger than one batch completely, in batches', async () => {
    const batched = new PruneFeedUseCase(
      loadConfig(EventsConfig, { ...process.env, FEED_RETENTION_DAYS: '30', FEED_PRUNE_BATCH_SIZE: '2' }),
      feed,
    );
    const partnerId = testPartnerId();
    const events = Array.from({ length: 6 }, () => withdrawalStateChanged(partnerId));
    for (const e of events) await feed.insertIfAbsent(partnerId, e);
    await feed.markManyDelivered(
      partnerId,
      events.slice(0, 5).map((e) => e.event_id),
      daysBefore(60),
    );
    const deleteBatch = jest.spyOn(feed, 'deleteDeliveredBefore');

    expect(await batched.execute(NOW)).toBe(5);

    expect(deleteBatch.mock.calls.map(([, limit]) => limit)).toEqual([2, 2, 2]); // 2 + 2 + 1: the short batch ends it
    expect((await feed.list(partnerId, {})).map((e) => e.id)).toEqual([events[5].event_id]);
    deleteBatch.mockRestore();
  });
});
