import { PartnerId } from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { newUuid, requireEnv, selectRow, withdrawalStateChanged, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { EventsConfig } from '../config/events.config';
import { AckEventsUseCase } from './ack-events.use-case';
import { FeedEventRepository } from './feed-event.repository';

// Integration against the real `events` schema; each test has partners of its own.
const config = loadConfig(EventsConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') });
const db = new Database(config, DB_SCHEMA);
const feed = new FeedEventRepository(db);
const useCase = new AckEventsUseCase(feed);

afterAll(() => db.close());

async function store(partnerId: PartnerId, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = withdrawalStateChanged(partnerId);
    await feed.insertIfAbsent(partnerId, event);
    ids.push(event.event_id);
  }
  return ids;
}

/** Seeds `count` events straight into the table (numbered 1..count): the ack, not the projection, is under test. */
async function seed(partnerId: PartnerId, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const e = withdrawalStateChanged(partnerId);
    return {
      id: e.event_id,
      partner_id: partnerId,
      sequence: i + 1,
      type: e.type,
      state: e.state,
      resource_id: e.resource_id,
      occurred_at: e.occurred_at,
    };
  });
  await db.query(
    `INSERT INTO feed_events (id, partner_id, sequence, type, state, resource_id, occurred_at, data)
     SELECT id, partner_id, sequence, type, state, resource_id, occurred_at, '{}'
       FROM jsonb_to_recordset($1) AS e(id uuid, partner_id uuid, sequence bigint, type text, state text, resource_id text, occurred_at timestamptz)`,
    [JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}

const deliveredAt = async (id: string) =>
  (await selectRow<{ delivered_at: Date | null }>(db, 'SELECT delivered_at FROM feed_events WHERE id = $1', [id])).delivered_at;

describe('AckEventsUseCase (PostgreSQL)', () => {
  it("marks all of the partner's given events delivered and reports the others, leaving them untouched", async () => {
    const owner = testPartnerId();
    const other = testPartnerId();
    const [a, b, c] = await store(owner, 3);
    const [foreign] = await store(other, 1);
    const unknown = newUuid();

    const reply = await useCase.execute({ partner_id: owner, ids: [a, b, foreign, unknown] }, new Date('2026-03-01T00:00:00Z'));

    expect(reply).toEqual({ ok: true, data: { acknowledged: 2, not_found: [foreign, unknown] } });
    expect((await feed.list(owner, { delivered: false })).map((e) => e.id)).toEqual([c]);
    expect(await deliveredAt(a)).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(await deliveredAt(foreign)).toBeNull();
  });

  it('acknowledges again without error, keeping the first delivery time; duplicates count once', async () => {
    const partnerId = testPartnerId();
    const [a, b] = await store(partnerId, 2);
    await useCase.execute({ partner_id: partnerId, ids: [a] }, new Date('2026-03-01T00:00:00Z'));

    const again = await useCase.execute({ partner_id: partnerId, ids: [a, b, a, b.toUpperCase()] }, new Date('2026-03-02T00:00:00Z'));

    expect(again).toEqual({ ok: true, data: { acknowledged: 2, not_found: [] } });
    expect(await deliveredAt(a)).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(await deliveredAt(b)).toEqual(new Date('2026-03-02T00:00:00Z'));
    expect(await feed.list(partnerId, { delivered: false })).toEqual([]);
  });

  it('acknowledges 1000 events in one call', async () => {
    const partnerId = testPartnerId();
    const ids = await seed(partnerId, 1000);

    expect(await useCase.execute({ partner_id: partnerId, ids })).toEqual({ ok: true, data: { acknowledged: 1000, not_found: [] } });
    expect(await feed.list(partnerId, { delivered: false })).toEqual([]);
  }, 30_000);
});
