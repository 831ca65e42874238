import { loadConfig } from '@partner/config';
import { IngestPixInflowCommand, ListPixInflowsResult, PartnerId } from '@partner/contracts';
import { newCpf, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { InflowsConfig } from '../config/inflows.config';
import { ingestionOn, openAccount, receiverOf } from '../accounts/accounts.spec-support';
import { newEndToEndId } from '../spi-simulator/end-to-end-id';
import { completeSender } from '../spi-simulator/sender-details';
import { encodeCursor } from './inflow-cursor';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';
import { PixInflowRepository } from './pix-inflow.repository';

// Integration: listings against the real inflows schema in PostgreSQL. Each test uses a partner of its own.
const config = loadConfig(InflowsConfig);
const db = new Database(config, DB_SCHEMA);
const inflows = new PixInflowRepository(db);
const ingest = ingestionOn(db, config);
const list = new ListPixInflowsUseCase(inflows);

afterAll(() => db.close());

/** Records `count` inflows for the partner, one after the other, as the Pix provider notifies them; returns their end-to-end ids, oldest first. */
async function recordInflows(partnerId: PartnerId, count: number, overrides: Partial<IngestPixInflowCommand> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const account = await openAccount(db, config, partnerId, newCpf());
    const sender = completeSender({});
    const e2e = newEndToEndId(sender.sender_bank_code, new Date());
    const reply = await ingest.execute({
      receiver_account: receiverOf(config, account),
      end_to_end_id: e2e,
      amount_cents: 100 + i,
      method: 'manual',
      ...sender,
      status: 'processing',
      ...overrides,
    });
    if (!reply.ok) throw new Error(`not recorded: ${JSON.stringify(reply.error)}`);
    ids.push(e2e);
  }
  return ids;
}

const ok = (reply: Awaited<ReturnType<ListPixInflowsUseCase['execute']>>): ListPixInflowsResult => {
  if (!reply.ok) throw new Error(`listing refused: ${JSON.stringify(reply.error)}`);
  return reply.data;
};
/** The cursor of the page after `result`; a missing one fails the test here rather than later. */
const cursorAfter = (result: ListPixInflowsResult): string => {
  if (typeof result.next_cursor !== 'string') throw new Error(`no next_cursor in ${JSON.stringify(result)}`);
  return result.next_cursor;
};
const idsOf = (result: ListPixInflowsResult) => result.pix_in.map((p) => p.end_to_end_id);

describe('ListPixInflowsUseCase (PostgreSQL)', () => {
  it('answers the original shape without paging: every inflow of the partner, newest first, no next_cursor', async () => {
    const partnerId = testPartnerId();
    const ids = await recordInflows(partnerId, 3);

    const result = ok(await list.execute({ partner_id: partnerId }));

    expect(Object.keys(result)).toEqual(['pix_in']);
    expect(idsOf(result)).toEqual([...ids].reverse());
    expect(result.pix_in.map((p) => p.amount_cents)).toEqual([102, 101, 100]);
  });

  it('shows a partner only its own inflows', async () => {
    const partnerId = testPartnerId();
    await recordInflows(partnerId, 2);

    expect(ok(await list.execute({ partner_id: testPartnerId() }))).toEqual({ pix_in: [] });
  });

  it('pages with limit and cursor: each inflow once, in order, next_cursor null at the end', async () => {
    const partnerId = testPartnerId();
    const ids = await recordInflows(partnerId, 5);

    const first = ok(await list.execute({ partner_id: partnerId, limit: 2 }));
    const second = ok(await list.execute({ partner_id: partnerId, limit: 2, cursor: cursorAfter(first) }));
    const third = ok(await list.execute({ partner_id: partnerId, limit: 2, cursor: cursorAfter(second) }));

    expect([idsOf(first), idsOf(second), idsOf(third)]).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(third.next_cursor).toBeNull();
  });

  it('ends with next_cursor null when the last page is exactly full', async () => {
    const partnerId = testPartnerId();
    await recordInflows(partnerId, 2);

    expect(ok(await list.execute({ partner_id: partnerId, limit: 2 })).next_cursor).toBeNull();
  });

  it('filters by status, also while paging', async () => {
    const partnerId = testPartnerId();
    const denied = await recordInflows(partnerId, 3, { status: 'denied' });
    const credited = await recordInflows(partnerId, 1, { status: 'credited' });

    expect(idsOf(ok(await list.execute({ partner_id: partnerId, status: 'credited' })))).toEqual(credited);
    const page = ok(await list.execute({ partner_id: partnerId, status: 'denied', limit: 2 }));
    expect(idsOf(page)).toEqual([denied[2], denied[1]]);
    const rest = ok(await list.execute({ partner_id: partnerId, status: 'denied', limit: 2, cursor: cursorAfter(page) }));
    expect([idsOf(rest), rest.next_cursor]).toEqual([[denied[0]], null]);
    expect(ok(await list.execute({ partner_id: partnerId, status: 'processing' })).pix_in).toEqual([]);
  });

  it('refuses a cursor it never issued, naming the field', async () => {
    const reply = await list.execute({ partner_id: testPartnerId(), cursor: 'bm90LWEtY3Vyc29y' });
    expect(reply).toEqual({ ok: false, error: { code: 'invalid_request', field: 'cursor', message: expect.any(String) } });
  });

  it("cannot reach another partner's inflows through a cursor", async () => {
    const owner = testPartnerId();
    await recordInflows(owner, 2);
    const beyondEverything = encodeCursor(9_000_000_000_000_000_000n);

    expect(ok(await list.execute({ partner_id: testPartnerId(), cursor: beyondEverything })).pix_in).toEqual([]);
  });
});
