import { ApiClient, newUuid, pollUntil } from '@partner/testing';
import { FeedEvent, listEvents, newPartner, newUser, sendWithdrawals } from './support/sandbox';

type Page = { events: FeedEvent[]; next_cursor: string };

async function getPage(api: ApiClient, query: string): Promise<Page> {
  const res = await api.get<Page>(`/partner/v1/events?${query}`);
  if (res.status !== 200) throw new Error(`events listing failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Follows next_cursor from the start until an empty page; answers every event seen and the page sizes. */
async function readAll(api: ApiClient, filter: string, limit: number): Promise<{ events: FeedEvent[]; sizes: number[] }> {
  const events: FeedEvent[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await getPage(api, [filter, `limit=${limit}`, cursor ? `cursor=${cursor}` : ''].filter(Boolean).join('&'));
    sizes.push(page.events.length);
    if (page.events.length === 0) {
      if (cursor) expect(page.next_cursor).toBe(cursor);
      return { events, sizes };
    }
    events.push(...page.events);
    cursor = page.next_cursor;
  }
  throw new Error('the feed never ended');
}

/**
 * A partner whose feed holds a settled life of three withdrawals (3 x created, sent, settled) and one
 * registered Pix key (pending, registered): 11 events once it is quiet.
 */
async function partnerWithQuietFeed(): Promise<{ api: ApiClient; all: FeedEvent[] }> {
  const { api } = await newPartner();
  const document = await newUser(api, 100_000_000);
  await sendWithdrawals(api, document, 3);
  expect((await api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() })).status).toBe(202);
  const all = await pollUntil(
    'three settled withdrawals and a registered key',
    () => listEvents(api, ''),
    (events) =>
      events.filter((e) => e.state === 'settled').length === 3 && events.some((e) => e.type === 'pix_key' && e.state === 'registered'),
  );
  expect(all).toHaveLength(11);
  return { api, all };
}

describe('events feed: sequence, cursor, type filter, bulk ack', () => {
  it('pages with limit=2 following next_cursor: every event once, sequences 1..n in order', async () => {
    const { api, all } = await partnerWithQuietFeed();

    const { events, sizes } = await readAll(api, '', 2);

    expect(sizes).toEqual([2, 2, 2, 2, 2, 1, 0]);
    expect(events.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(new Set(events.map((e) => e.id)).size).toBe(11);
    expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    // Each withdrawal's states arrive in the order they happened.
    for (const id of new Set(events.filter((e) => e.type === 'usdt_withdrawal').map((e) => e.resource_id))) {
      expect(events.filter((e) => e.resource_id === id && e.type === 'usdt_withdrawal').map((e) => e.state)).toEqual([
        'created',
        'sent',
        'settled',
      ]);
    }
  });

  it('filters by type, and the type filter pages with its own cursor', async () => {
    const { api, all } = await partnerWithQuietFeed();

    const keys = await readAll(api, 'type=pix_key', 1);
    expect(keys.events.map((e) => e.state)).toEqual(['pending', 'registered']);
    expect(keys.events.map((e) => e.id)).toEqual(all.filter((e) => e.type === 'pix_key').map((e) => e.id));

    const withdrawals = await getPage(api, 'type=usdt_withdrawal&delivered=false');
    expect(withdrawals.events).toHaveLength(9);
    expect(withdrawals.events.every((e) => e.type === 'usdt_withdrawal')).toBe(true);
    expect((await getPage(api, 'type=business_customer')).events).toEqual([]);
  });

  it('bulk ack marks the events delivered: delivered=false is then empty, and acking again still answers 200', async () => {
    const { api, all } = await partnerWithQuietFeed();
    const ids = all.map((e) => e.id);

    const ack = await api.post('/partner/v1/events/ack', { ids });
    expect([ack.status, ack.body]).toEqual([200, { acknowledged: 11, not_found: [] }]);

    expect((await getPage(api, 'delivered=false')).events).toEqual([]);
    const delivered = await getPage(api, 'delivered=true');
    expect(delivered.events.map((e) => e.id)).toEqual(ids);
    expect(delivered.events.every((e) => e.delivered)).toBe(true);

    const again = await api.post('/partner/v1/events/ack', { ids: ids.slice(0, 2) });
    expect([again.status, again.body]).toEqual([200, { acknowledged: 2, not_found: [] }]);
    const single = await api.patch(`/partner/v1/events/${ids[0]}`);
    expect([single.status, single.body]).toEqual([200, {}]);
  });

  it("bulk ack with another partner's event id: not_found, and the owner's event stays undelivered", async () => {
    const owner = await partnerWithQuietFeed();
    const other = await newPartner('other partner');
    const [foreign] = owner.all;
    const unknown = newUuid();

    const res = await other.api.post('/partner/v1/events/ack', { ids: [foreign.id, unknown] });

    expect([res.status, res.body]).toEqual([200, { acknowledged: 0, not_found: [foreign.id, unknown] }]);
    const ownerView = await getPage(owner.api, 'delivered=false');
    expect(ownerView.events.map((e) => e.id)).toEqual(owner.all.map((e) => e.id));
  });

  it('refuses a bad ack body with 400 invalid_request naming ids', async () => {
    const { api } = await newPartner();
    const tooMany = Array.from({ length: 1001 }, () => newUuid());
    for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: ['not-a-uuid'] }, { ids: tooMany }]) {
      const res = await api.post('/partner/v1/events/ack', body);
      expect({ body: JSON.stringify(body).slice(0, 40), status: res.status, error: res.body.error, field: res.body.field }).toEqual({
        body: JSON.stringify(body).slice(0, 40),
        status: 400,
        error: 'invalid_request',
        field: 'ids',
      });
    }
    const extra = await api.post('/partner/v1/events/ack', { ids: [newUuid()], all: true });
    expect([extra.status, extra.body.error, extra.body.field]).toEqual([400, 'invalid_request', 'all']);
  });

  it('refuses an unknown type or a forged cursor with 400 invalid_request naming the field', async () => {
    const { api } = await newPartner();
    for (const [query, field] of [
      ['type=withdrawal', 'type'],
      ['type=', 'type'],
      ['cursor=abc!', 'cursor'],
      [`cursor=${Buffer.from('-5').toString('base64url')}`, 'cursor'],
      ['cursor=', 'cursor'],
    ]) {
      const res = await api.get(`/partner/v1/events?${query}`);
      expect({ query, status: res.status, body: res.body }).toMatchObject({
        query,
        status: 400,
        body: { error: 'invalid_request', message: expect.any(String), field },
      });
    }
  });
});
