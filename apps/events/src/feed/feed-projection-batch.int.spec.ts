import { loadConfig } from '@partner/config';
import { FeedEvent } from '@partner/contracts';
import { newUuid, requireEnv, selectCount, selectRows, withdrawalStateChanged, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { EventsConfig } from '../config/events.config';
import { FeedEventRepository } from './feed-event.repository';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';

// Integration against the real `events` schema: the batched projection (one transaction per batch)
// keeps the guarantees of the one-event projection. Every test has partners of its own.
const config = loadConfig(EventsConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') });
const db = new Database(config, DB_SCHEMA);
const feed = new FeedEventRepository(db);

afterAll(() => db.close());

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The partner's stored [event id, sequence] pairs in sequence order, and its counter. */
async function storedOf(partnerId: string): Promise<{ rows: Array<[string, number]>; counter: bigint | undefined }> {
  const rows = await selectRows<{ id: string; sequence: string }>(
    db,
    'SELECT id, sequence FROM feed_events WHERE partner_id = $1 ORDER BY sequence',
    [partnerId],
  );
  const [counter] = await selectRows<{ last_sequence: string }>(db, 'SELECT last_sequence FROM partner_sequences WHERE partner_id = $1', [
    partnerId,
  ]);
  return { rows: rows.map((r) => [r.id, Number(r.sequence)]), counter: counter && BigInt(counter.last_sequence) };
}

/** Deterministic shuffle, so concurrent batches list the same partners in different orders. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('FeedEventRepository.insertBatch (PostgreSQL)', () => {
  it('numbers each partner consecutively in arrival order, in one batch mixing partners', async () => {
    const [a, b] = [testPartnerId(), testPartnerId()];
    const events = [a, b, a, a, b].map((p) => withdrawalStateChanged(p));

    expect(await feed.insertBatch(events)).toEqual([1, 1, 2, 3, 2]);

    expect((await storedOf(a)).rows).toEqual([
      [events[0].event_id, 1],
      [events[2].event_id, 2],
      [events[3].event_id, 3],
    ]);
    expect(await storedOf(b)).toEqual({
      rows: [
        [events[1].event_id, 1],
        [events[4].event_id, 2],
      ],
      counter: 2n,
    });
    expect((await feed.list(a, {})).map((e) => e.data)).toEqual([events[0].resource, events[2].resource, events[3].resource]);
  });

  it('stores an event given twice in one batch once: the second copy is a redelivery and takes no number', async () => {
    const partnerId = testPartnerId();
    const [x, y] = [withdrawalStateChanged(partnerId), withdrawalStateChanged(partnerId)];

    expect(await feed.insertBatch([x, x, y, { ...x, event_id: x.event_id.toUpperCase() }])).toEqual([1, undefined, 2, undefined]);

    expect(await storedOf(partnerId)).toEqual({
      rows: [
        [x.event_id, 1],
        [y.event_id, 2],
      ],
      counter: 2n,
    });
  });

  it('a batch of redeliveries consumes no number; the next new event continues the count', async () => {
    const partnerId = testPartnerId();
    const first = [withdrawalStateChanged(partnerId), withdrawalStateChanged(partnerId)];
    await feed.insertBatch(first);

    expect(await feed.insertBatch([first[1], first[0]])).toEqual([undefined, undefined]);
    const next = withdrawalStateChanged(partnerId);
    expect(await feed.insertBatch([first[0], next])).toEqual([undefined, 3]);

    expect(await storedOf(partnerId)).toEqual({
      rows: [
        [first[0].event_id, 1],
        [first[1].event_id, 2],
        [next.event_id, 3],
      ],
      counter: 3n,
    });
  });

  it('stores an event in two concurrent batches once, with one number, and no gap after it', async () => {
    const partnerId = testPartnerId();
    const shared = withdrawalStateChanged(partnerId);
    const [own1, own2] = [withdrawalStateChanged(partnerId), withdrawalStateChanged(partnerId)];

    const [r1, r2] = await Promise.all([feed.insertBatch([own1, shared]), feed.insertBatch([shared, own2])]);

    // Whichever committed first numbered `shared`; the other saw it stored after taking the lock.
    expect([r1[1], r2[0]].filter((n) => n !== undefined)).toHaveLength(1);
    const { rows, counter } = await storedOf(partnerId);
    expect(rows.map(([, sequence]) => sequence)).toEqual([1, 2, 3]);
    expect(new Set(rows.map(([id]) => id))).toEqual(new Set([own1.event_id, own2.event_id, shared.event_id]));
    expect(counter).toBe(3n);
    const byId = new Map(rows);
    expect(byId.get(own1.event_id)).toBe(r1[0]);
    expect(byId.get(own2.event_id)).toBe(r2[1]);
  });

  it('keeps every partner 1..n with no gap or duplicate under 12 concurrent batches sharing partners and events', async () => {
    const partners = range(4).map(() => testPartnerId());
    // 150 distinct events, each sent in two different batches (a redelivery racing its first copy).
    const events = range(150).map((i) => withdrawalStateChanged(partners[i % partners.length]));
    const copies = [...shuffled(events, 1), ...shuffled(events, 2)];
    const batches = range(12).map((i) => copies.slice((i - 1) * 25, i * 25));

    const answers = await Promise.all(batches.map((batch) => feed.insertBatch(batch)));

    const given = new Map<string, number>();
    answers.forEach((answer, b) =>
      answer.forEach((n, i) => {
        if (n === undefined) return;
        expect(given.has(batches[b][i].event_id)).toBe(false); // numbered once
        given.set(batches[b][i].event_id, n);
      }),
    );
    expect(given.size).toBe(150);
    for (const partnerId of partners) {
      const mine = events.filter((e) => e.partner_id === partnerId);
      const { rows, counter } = await storedOf(partnerId);
      expect(rows.map(([, sequence]) => sequence)).toEqual(range(mine.length));
      expect(new Set(rows.map(([id]) => id))).toEqual(new Set(mine.map((e) => e.event_id)));
      expect(counter).toBe(BigInt(mine.length));
      rows.forEach(([id, sequence]) => expect(given.get(id)).toBe(sequence));
    }
  }, 30_000);

  it('treats an id already stored under another partner as a redelivery, taking no number', async () => {
    const [a, b] = [testPartnerId(), testPartnerId()];
    const original = withdrawalStateChanged(a);
    await feed.insertBatch([original]);
    const clash: FeedEvent = { ...withdrawalStateChanged(b), event_id: original.event_id };
    const fine = withdrawalStateChanged(b);

    expect(await feed.insertBatch([clash, fine])).toEqual([undefined, 1]);
    expect(await storedOf(b)).toEqual({ rows: [[fine.event_id, 1]], counter: 1n });
  });

  it('stores an id racing under two partners once and leaves no gap in either count', async () => {
    const [a, b] = [testPartnerId(), testPartnerId()];
    const id = newUuid();
    const [x, y] = [
      { ...withdrawalStateChanged(a), event_id: id },
      { ...withdrawalStateChanged(b), event_id: id },
    ];
    const [fillA, fillB] = [withdrawalStateChanged(a), withdrawalStateChanged(b)];

    // Different partners: no shared lock. The loser either sees the winner's row (undefined) or, when
    // both looked before either committed, finds the insert short and rolls its whole batch back.
    await Promise.allSettled([feed.insertBatch([x, fillA]), feed.insertBatch([y, fillB])]);
    await feed.insertBatch([fillA, fillB]); // what Kafka's redelivery of a rolled-back batch would do

    expect(await selectCount(db, 'SELECT count(*) FROM feed_events WHERE id = $1', [id])).toBe(1);
    for (const p of [a, b]) {
      const { rows, counter } = await storedOf(p);
      expect(rows.map(([, n]) => n)).toEqual(range(rows.length));
      expect(counter).toBe(BigInt(rows.length));
    }
  });

  it('leaves nothing behind when the batch fails: no row and no number', async () => {
    const partnerId = testPartnerId();
    await feed.insertBatch([withdrawalStateChanged(partnerId)]);
    const good = withdrawalStateChanged(partnerId);
    const bad = { ...withdrawalStateChanged(partnerId), event_id: 'not-a-uuid' };

    await expect(feed.insertBatch([good, bad])).rejects.toThrow();

    expect((await storedOf(partnerId)).rows.map(([, n]) => n)).toEqual([1]);
    expect((await storedOf(partnerId)).counter).toBe(1n);
    expect(await feed.insertBatch([good])).toEqual([2]);
  });
});

describe('ProjectFeedEventUseCase batching (PostgreSQL)', () => {
  it('projects 200 events handed over at once in a few transactions, each caller getting its own number', async () => {
    const project = new ProjectFeedEventUseCase(feed, loadConfig(EventsConfig, { ...process.env, FEED_PROJECTION_BATCH_SIZE: '50' }));
    const partners = range(3).map(() => testPartnerId());
    const events = range(200).map((i) => withdrawalStateChanged(partners[i % 3]));
    const batches = jest.spyOn(feed, 'insertBatch');

    const given = await Promise.all(events.map((e) => project.execute(e)));

    expect(batches.mock.calls.map(([batch]) => batch.length)).toEqual([50, 50, 50, 50]);
    batches.mockRestore();
    for (const partnerId of partners) {
      const { rows } = await storedOf(partnerId);
      const mine = events.map((e, i) => [e, given[i]] as const).filter(([e]) => e.partner_id === partnerId);
      // Arrival order within a partner is sequence order.
      expect(rows).toEqual(mine.map(([e], i) => [e.event_id, i + 1]));
      expect(mine.map(([, n]) => n)).toEqual(range(mine.length));
    }
  }, 30_000);

  it('lets a bad event fail alone: the rest of its batch is stored with gap-free numbers, the bad one rejects', async () => {
    const project = new ProjectFeedEventUseCase(feed, config);
    const partnerId = testPartnerId();
    const [a, b] = [withdrawalStateChanged(partnerId), withdrawalStateChanged(partnerId)];
    const bad = { ...withdrawalStateChanged(partnerId), event_id: 'not-a-uuid' };

    const settled = await Promise.allSettled([project.execute(a), project.execute(bad), project.execute(b)]);

    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await storedOf(partnerId)).toEqual({
      rows: [
        [a.event_id, 1],
        [b.event_id, 2],
      ],
      counter: 2n,
    });
    // Redelivering the good ones after the failure changes nothing.
    expect(await Promise.all([project.execute(a), project.execute(b)])).toEqual([undefined, undefined]);
  });
});
