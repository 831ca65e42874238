import { ApiClient, ApiResponse, pollUntil, requireEnv } from '@partner/testing';
import { curlCommands, docBlock, DocCurl } from './support/doc-curl';
import { FeedEvent, gatewayUrl } from './support/sandbox';

// docs/api.md's Quick tour, run as a new partner would: every curl command exactly as the document prints it,
// parsed from the document (so the tour and the code cannot drift apart), against this stack's gateway. The
// tour's own placeholders are filled as its text says: $A the admin key, $K the API key the first answer gave,
// the withdrawal's id "from the answer", <event id> ids from the feed. Each outcome its comments promise is checked.

type Feed = { events: FeedEvent[]; next_cursor: string | null };

const TOUR = curlCommands(docBlock('api.md', '## Quick tour'));

/** The route of a command, its ids and placeholders generalised: what the tour's structure is checked against. */
const routeOf = (c: DocCurl) =>
  `${c.method} ${c.url
    .replace(/^localhost:3000/, '')
    .replace(/\/\d+$/, '/{id}')
    .replace(/<event id>/, '{id}')}`;

describe('the Quick tour of docs/api.md, as printed', () => {
  const vars: Record<string, string> = { A: requireEnv('ADMIN_API_KEY') };
  const answers: ApiResponse<Record<string, unknown>>[] = [];
  let feed: FeedEvent[] = [];

  /** Runs the tour's command `i` with its placeholders filled; `ids` fill `<event id>` in order. */
  async function run(i: number, ids: string[] = []): Promise<ApiResponse<Record<string, unknown>>> {
    const command = TOUR[i];
    const fill = (text: string) => {
      let next = 0;
      return text.replace(/\$([A-Z])\b/g, (_m, name: string) => vars[name] ?? `$${name}`).replace(/<event id>/g, () => ids[next++]);
    };
    let path = fill(command.url.replace(/^localhost:3000/, ''));
    // "read it back (its id from the answer)": the printed 1 is the example's id.
    if (/^\/partner\/v1\/withdrawals\/usdt\/\d+$/.test(path)) path = path.replace(/\d+$/, String(answers[2].body.id));
    const headers = Object.fromEntries(Object.entries(command.headers).map(([k, v]) => [k, fill(v)]));
    return new ApiClient(gatewayUrl()).request(command.method, path, command.body === undefined ? undefined : fill(command.body), headers);
  }

  it('is the tour this suite knows: the same requests in the same order', () => {
    expect(TOUR.map(routeOf)).toEqual([
      'POST /sandbox/v1/partners',
      'POST /sandbox/v1/users',
      'POST /partner/v1/withdrawals/usdt',
      'GET /partner/v1/withdrawals/usdt/{id}',
      'POST /partner/v1/pix-key',
      'POST /sandbox/v1/pix-in',
      'GET /partner/v1/pix-in',
      'GET /partner/v1/events?delivered=false',
      'PATCH /partner/v1/events/{id}',
      'POST /partner/v1/events/ack',
    ]);
  });

  it('a sandbox partner and its API key, shown once', async () => {
    const res = await run(0);
    expect(res).toMatchObject({ status: 201, body: { id: expect.any(String), api_key: expect.stringMatching(/^pk_sandbox_/) } });
    vars.K = res.body.api_key as string;
    answers.push(res);
  });

  it('a user (valid CPF) with 10 USDT', async () => {
    const res = await run(1);
    expect(res).toMatchObject({ status: 201, body: { document: '52998224725', usdt_micros: 10_000_000 } });
    answers.push(res);
  });

  it('withdraws 1 USDT on Polygon, and reads it back by the id of the answer', async () => {
    const created = await run(2);
    expect(created).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    answers.push(created);
    const read = await run(3);
    expect(read).toMatchObject({ status: 200, body: { id: created.body.id, network: 'MATIC', state: expect.any(String) } });
    answers.push(read);
  });

  it("registers the user's CPF as their Pix key: accepted", async () => {
    const res = await run(4);
    expect(res).toMatchObject({ status: 202, body: { status: 'accepted' } });
    answers.push(res);
  });

  it('a simulated incoming Pix of R$ 123.45 to that user, then the list of inflows shows it', async () => {
    const sent = await run(5);
    expect(sent).toMatchObject({ status: 202, body: { end_to_end_id: expect.any(String) } });
    answers.push(sent);
    const listed = await pollUntil(
      'the inflow in GET /partner/v1/pix-in',
      () => run(6),
      (res) =>
        res.status === 200 && (res.body.pix_in as Array<Record<string, unknown>>).some((p) => p.end_to_end_id === sent.body.end_to_end_id),
    );
    expect((listed.body.pix_in as Array<Record<string, unknown>>)[0]).toMatchObject({ amount_cents: 12_345, description: 'pizza' });
    answers.push(listed);
  });

  it('the feed: the withdrawal created, sent, settled; the key pending, registered; the Pix processing, approved, success, credited', async () => {
    const statesOf = (events: FeedEvent[], type: string) => events.filter((e) => e.type === type).map((e) => e.state);
    const promised: Record<string, string[]> = {
      usdt_withdrawal: ['created', 'sent', 'settled'],
      pix_key: ['pending', 'registered'],
      pix_in: ['processing', 'approved', 'success', 'credited'],
    };
    const res = await pollUntil(
      'every event the tour promises',
      () => run(7),
      (r) => Object.entries(promised).every(([type, states]) => statesOf((r.body as Feed).events, type).length >= states.length),
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    feed = (res.body as Feed).events;
    for (const [type, states] of Object.entries(promised)) expect([type, statesOf(feed, type)]).toEqual([type, states]);
    expect(feed.every((e) => e.delivered === false)).toBe(true);
  }, 150_000);

  it('marks one event delivered (200 {}), then acknowledges two more in one call', async () => {
    const [first, second, third] = feed.map((e) => e.id);
    expect(await run(8, [first])).toMatchObject({ status: 200, body: {} });
    expect(await run(9, [second, third])).toMatchObject({ status: 200, body: { acknowledged: 2, not_found: [] } });
    const partner = new ApiClient(gatewayUrl(), { 'x-api-key': vars.K });
    const delivered = await partner.get<Feed>('/partner/v1/events?delivered=true');
    expect(delivered.body.events.map((e) => e.id).sort()).toEqual([first, second, third].sort());
  });

  afterAll(async () => {
    // Leaves DICT as it found it: the tour's CPF is a fixed one.
    if (!vars.K) return;
    const partner = new ApiClient(gatewayUrl(), { 'x-api-key': vars.K });
    await partner.request('DELETE', '/partner/v1/pix-key/52998224725', { idempotency_key: '0b6c3f4e-9a0d-4f7e-8c2b-1d5e6f7a8b9c' });
  });
});
