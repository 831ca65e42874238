import { PartnerClient } from './partner-client';
import { TestServer, type Received } from './test-server.spec-support';

// Lists page by page against a real local HTTP server that pages like the API: `limit` items after
// `cursor`, and the cursor of the next page (null on the last).

let server: TestServer;
beforeAll(async () => (server = await new TestServer().start()));
afterAll(() => server.stop());

const client = () => new PartnerClient({ baseUrl: server.url, apiKey: 'pk_test', retry: { baseDelayMs: 10 } });
const query = (r: Received) => Object.fromEntries(new URL(r.url, 'http://x').searchParams);

/** Answers pages of `total` numbered items under `key`, `limit` (default 2) at a time. */
function pagesOf(key: string, total: number, lastCursor: (next: number) => string | null = (next) => (next < total ? String(next) : null)) {
  return (r: Received) => {
    const { cursor = '0', limit = '2' } = query(r);
    const from = Number(cursor);
    const items = Array.from({ length: Math.max(0, Math.min(Number(limit), total - from)) }, (_, i) => ({ id: from + i + 1 }));
    return { body: { [key]: items, next_cursor: lastCursor(from + items.length) } };
  };
}

describe('Paginator', () => {
  it('iterates every withdrawal across pages, keeping the filters on each page', async () => {
    server.script(pagesOf('withdrawals', 5));
    const seen: number[] = [];
    for await (const w of client().withdrawals.list({ state: 'settled', document: '52998224725', limit: 2 })) seen.push(w.id);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(server.received.map(query)).toEqual([
      { state: 'settled', document: '52998224725', limit: '2' },
      { state: 'settled', document: '52998224725', limit: '2', cursor: '2' },
      { state: 'settled', document: '52998224725', limit: '2', cursor: '4' },
    ]);
  });

  it('pages() yields each raw page; reading stops where the caller stops', async () => {
    server.script(pagesOf('pix_keys', 5));
    const pages = [];
    for await (const page of client().pixKeys.list({ status: 'registered' }).pages()) pages.push(page);
    expect(pages.map((p) => [p.pix_keys.length, p.next_cursor])).toEqual([
      [2, '2'],
      [2, '4'],
      [1, null],
    ]);

    server.script(pagesOf('customers', 100));
    for await (const customer of client().customers.list({ external_id: 'ext-1' })) if (String(customer.id) === '2') break;
    expect(server.received).toHaveLength(1);
  });

  it('toArray reads to the end; an empty first page is an empty list', async () => {
    server.script(pagesOf('customers', 3));
    expect((await client().customers.list({ cnpj: '12ABC34501DE35' }).toArray()).map((c) => c.id)).toEqual([1, 2, 3]);
    server.script(pagesOf('withdrawals', 0));
    expect(await client().withdrawals.list().toArray()).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it('Pix inflows: always sends limit (so the answer is a page), follows next_cursor', async () => {
    server.script(pagesOf('pix_in', 3));
    expect((await client().pixInflows.list({ status: 'credited', limit: 2 }).toArray()).length).toBe(3);
    expect(server.received.map(query)).toEqual([
      { status: 'credited', limit: '2' },
      { status: 'credited', limit: '2', cursor: '2' },
    ]);
    server.script({ body: { pix_in: [] } });
    expect(await client().pixInflows.listPage()).toEqual({ pix_in: [], next_cursor: null });
    expect(query(server.received[0])).toEqual({ limit: '100' });
  });

  it('events: follows next_cursor until an empty page (the feed always answers a cursor)', async () => {
    server.script(pagesOf('events', 3, (next) => String(next)));
    const ids = (await client().events.list({ type: 'usdt_withdrawal', limit: 2 }).toArray()).map((e) => e.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(server.received.map(query).map((q) => q.cursor)).toEqual([undefined, '2', '3']);
  });

  it('balances: GET the user balance', async () => {
    server.script({ body: { document: '52998224725', available_usdt_micros: 5, held_usdt_micros: 1 } });
    await expect(client().balances.get('52998224725')).resolves.toEqual({
      document: '52998224725',
      available_usdt_micros: 5,
      held_usdt_micros: 1,
    });
    expect(server.received[0].url).toBe('/partner/v1/users/52998224725/balance');
  });
});
