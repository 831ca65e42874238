import { Producer } from 'kafkajs';
import { Client } from 'pg';
import { Topics } from '@partner/contracts';
import { pollUntil, requireEnv, testPartnerId, withdrawalStateChanged } from '@partner/testing';
import { operatorCli } from './support/operator-cli';
import { listEvents, newPartner } from './support/sandbox';
import { busAs } from './support/bus';

/**
 * Events evolve without loss (issue 24, ADR 0015), against the running stack: an event carrying a field
 * its consumer does not know is projected; one that fails its contract is parked in the events service's
 * dead letters (counted on its /metrics), never committed away, and once corrected and replayed with the
 * operator command it is projected exactly once.
 */
const TOPIC = Topics.WithdrawalStateChanged;

let producer: Producer;
let db: Client;

beforeAll(async () => {
  // A withdrawals service gone wrong: the one principal the broker lets publish this event (bus-acls.spec.ts).
  producer = busAs('withdrawals').producer();
  await producer.connect();
  db = new Client({ connectionString: requireEnv('DATABASE_URL') });
  await db.connect();
});

afterAll(async () => {
  await producer?.disconnect();
  await db?.end();
});

const publish = (key: string, payload: unknown) => producer.send({ topic: TOPIC, messages: [{ key, value: JSON.stringify(payload) }] });

/** `npm run cli -- dead-letters ...` (exit code and output, a failure included). */
const cli = (...args: string[]) => operatorCli('dead-letters', ...args);

/** The events service's /metrics value of one sample (0 when absent). */
async function metric(name: string, labels = ''): Promise<number> {
  const url = (JSON.parse(requireEnv('SERVICE_HEALTH_URLS')) as Record<string, string>).events;
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('dead letters: unknown fields are ignored, unprocessable events are parked and replayed', () => {
  it('projects an event that carries fields its consumer does not know', async () => {
    const { id, api } = await newPartner('evolving events');
    const event = withdrawalStateChanged(testPartnerId(id), { resourceId: 9_100_001 });
    await publish(`usdt_withdrawal:${event.resource_id}`, {
      ...event,
      added_in_v2: 'a new field',
      resource: { ...event.resource, also_new: 1 },
    });

    const feed = await pollUntil(
      'the event in the feed',
      () => listEvents(api, ''),
      (events) => events.some((e) => e.id === event.event_id),
      { timeoutMs: 30_000 },
    );
    expect(feed.filter((e) => e.id === event.event_id)).toHaveLength(1);
    expect(feed[0]).toMatchObject({ type: 'usdt_withdrawal', state: 'created', resource_id: event.resource_id });
  }, 60_000);

  it('parks a malformed event (counted on /metrics), and projects it exactly once after it is corrected and replayed', async () => {
    const { id, api } = await newPartner('malformed events');
    const event = withdrawalStateChanged(testPartnerId(id), { resourceId: 9_100_002 });
    const key = `usdt_withdrawal:${event.resource_id}`;
    const counted = `topic="${TOPIC}"`;
    const before = await metric('dead_letters_total', counted);
    // Later on the same key: it must not wait behind the malformed one (parked, not retried forever).
    const next = withdrawalStateChanged(testPartnerId(id), { resourceId: 9_100_002, state: 'sent' });
    await publish(key, { ...event, state: 'exploded' });
    await publish(key, next);

    const parked = await pollUntil(
      'the malformed event parked',
      async () =>
        (
          await db.query<{ id: string; reason: string }>(`SELECT id, reason FROM events.dead_letters WHERE value LIKE $1`, [
            `%${event.event_id}%`,
          ])
        ).rows,
      (rows) => rows.length === 1,
      { timeoutMs: 30_000 },
    );
    expect(parked[0].reason).toMatch(/state/);
    await pollUntil(
      'the event after it projected',
      () => listEvents(api, ''),
      (events) => events.some((e) => e.id === next.event_id),
      { timeoutMs: 30_000 },
    );
    expect((await listEvents(api, '')).map((e) => e.id)).toEqual([next.event_id]);
    await pollUntil(
      'counted on /metrics',
      () => metric('dead_letters_total', counted),
      (n) => n === before + 1,
      { timeoutMs: 10_000 },
    );
    expect(await metric('dead_letters_parked')).toBeGreaterThanOrEqual(1);
    expect((await cli('list')).out).toContain(parked[0].id);

    // The operator corrects the stored value (a contract-compatible fix), then replays it.
    await db.query(`UPDATE events.dead_letters SET value = $1 WHERE id = $2`, [JSON.stringify(event), parked[0].id]);
    const replayed = await cli('replay', parked[0].id);
    expect(replayed).toMatchObject({ code: 0, out: expect.stringContaining('"outcome":"replayed"') });

    const feed = await listEvents(api, '');
    expect(feed.filter((e) => e.id === event.event_id)).toHaveLength(1);
    // Replayed once: asking again changes nothing, nor does the same event delivered again through Kafka.
    expect(await cli('replay', parked[0].id)).toMatchObject({ code: 1, out: expect.stringContaining('not parked') });
    await publish(key, event);
    const marker = withdrawalStateChanged(testPartnerId(id), { resourceId: 9_100_003 });
    await publish(key, marker); // after the redelivery on the same key
    const after = await pollUntil(
      'a later event projected',
      () => listEvents(api, ''),
      (events) => events.some((e) => e.id === marker.event_id),
      { timeoutMs: 30_000 },
    );
    expect(after.filter((e) => e.id === event.event_id)).toHaveLength(1);
    expect(after.map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect((await cli('list')).out).not.toContain(parked[0].id);
    expect(await metric('dead_letters_parked')).toBe(0);
  }, 120_000);
});
