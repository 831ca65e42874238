import { loadConfig } from '@partner/config';
import { ListWithdrawalsQuery, PartnerId, WithdrawalState } from '@partner/contracts';
import { allReplyPages, newCpf, newUuid, testPartnerId, VALID_ADDRESS } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { ListWithdrawalsUseCase } from './list-withdrawals.use-case';
import { WithdrawalRepository } from './withdrawal.repository';
import { WaitingReasons } from './waiting-reasons.service';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { poolFor } from '../hot-wallets/hot-wallets.module';

// Integration: the real withdrawals schema in PostgreSQL (npm test migrates it). Each test uses partners of its own.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const list = new ListWithdrawalsUseCase(new WithdrawalRepository(db), new WaitingReasons(new HotWalletRepository(db), poolFor(config)));
const STATES: WithdrawalState[] = ['created', 'sent', 'settled', 'failed'];
const BASE = Date.parse('2026-11-20T12:00:00.000Z');

interface Seeded {
  id: number;
  document: string;
  state: WithdrawalState;
  atMs: number;
}

// The seeded rows have no account and no hold: removed once done, so that no chain simulator sharing the test
// database (another spec's, or the e2e stack's) tries to move a 'created' or 'sent' one of them.
const seededPartners = new Set<PartnerId>();

/** `count` withdrawals written straight into the table, five to a creation time (ties), two users, the states in turn. */
async function seed(partnerId: PartnerId, count: number, documents = [newCpf(), newCpf()]): Promise<Seeded[]> {
  seededPartners.add(partnerId);
  const rows: Seeded[] = [];
  for (let i = 0; i < count; i++) {
    const document = documents[i % documents.length];
    const state = STATES[i % STATES.length];
    const atMs = BASE + Math.floor(i / 5) * 1000;
    const { rows: inserted } = await db.query<{ id: number }>(
      `INSERT INTO withdrawals.withdrawals (partner_id, document, idempotency_key, fingerprint, address, network, fee_choice, amount_micros, fee_micros, state, created_at, updated_at)
       VALUES ($1, $2, $3, repeat('0', 64), $4, 'MATIC', 'LOW', 10000, 20000, $5, $6, $6) RETURNING id`,
      [partnerId, document, newUuid(), VALID_ADDRESS, state, new Date(atMs)],
    );
    rows.push({ id: inserted[0].id, document, state, atMs });
  }
  return rows;
}

/** Newest first: creation time, then id, both descending. */
const newestFirst = (rows: Seeded[]) => [...rows].sort((a, b) => b.atMs - a.atMs || b.id - a.id).map((r) => r.id);

const everyPage = (query: Omit<ListWithdrawalsQuery, 'cursor'>) =>
  allReplyPages('withdrawals', (cursor) => list.execute({ ...query, cursor }));

afterAll(async () => {
  await db.query('DELETE FROM withdrawals.withdrawals WHERE partner_id = ANY($1)', [[...seededPartners]]);
  await db.close();
});

describe('ListWithdrawalsUseCase (PostgreSQL)', () => {
  it('pages through every withdrawal of the partner, newest first, ties on created_at broken by id, no repeat and no gap', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 23);
    await seed(testPartnerId(), 4);
    const { items, pages } = await everyPage({ partner_id: partnerId, limit: 4 });
    expect(items.map((w) => w.id)).toEqual(newestFirst(rows));
    expect(pages).toBe(6);
    // Each item is the withdrawal as GET /partner/v1/withdrawals/usdt/{id} answers it.
    expect(items[0]).toEqual({
      id: expect.any(Number),
      document: expect.any(String),
      address: VALID_ADDRESS,
      network: 'MATIC',
      fee_choice: 'LOW',
      usdtmicros: 10000,
      fee_usdtmicros: 20000,
      state: expect.any(String),
      tx_hash: null,
      block_number: null,
      failure_reason: null,
      beneficiary: null,
      report_id: null,
      waiting_reason: null,
      created_at: Math.floor((BASE + 4000) / 1000),
      last_updated_at: Math.floor((BASE + 4000) / 1000),
    });
  });

  it('answers one page with a null next_cursor when everything fits, and an empty one for a partner without withdrawals', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 3);
    const reply = await list.execute({ partner_id: partnerId });
    expect(reply).toEqual({ ok: true, data: { withdrawals: expect.any(Array), next_cursor: null } });
    expect(reply.ok && reply.data.withdrawals.map((w) => w.id)).toEqual(newestFirst(rows));
    expect(await list.execute({ partner_id: testPartnerId() })).toEqual({ ok: true, data: { withdrawals: [], next_cursor: null } });
  });

  it('filters by user and by state, alone and together, across pages', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 24);
    const document = rows[0].document;
    const byDocument = await everyPage({ partner_id: partnerId, document, limit: 5 });
    expect(byDocument.items.map((w) => w.id)).toEqual(newestFirst(rows.filter((r) => r.document === document)));
    const sent = await everyPage({ partner_id: partnerId, state: 'sent', limit: 2 });
    expect(sent.items.map((w) => w.id)).toEqual(newestFirst(rows.filter((r) => r.state === 'sent')));
    expect(sent.items.every((w) => w.state === 'sent')).toBe(true);
    const both = await everyPage({ partner_id: partnerId, document: rows[1].document, state: 'sent', limit: 2 });
    expect(both.items.map((w) => w.id)).toEqual(newestFirst(rows.filter((r) => r.document === rows[1].document && r.state === 'sent')));
    expect(both.items.length).toBeGreaterThan(0);
  });

  it('keeps created_from inclusive and created_to exclusive, to the millisecond', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 20);
    const from = new Date(BASE + 1000).toISOString();
    const to = new Date(BASE + 3000).toISOString();
    const window = await everyPage({ partner_id: partnerId, created_from: from, created_to: to, limit: 3 });
    expect(window.items.map((w) => w.id)).toEqual(newestFirst(rows.filter((r) => r.atMs >= BASE + 1000 && r.atMs < BASE + 3000)));
    expect(window.items).toHaveLength(10);
    // The same instants in another offset and spelling are the same bounds.
    const offset = await everyPage({
      partner_id: partnerId,
      created_from: '2026-11-20T09:00:01-03:00',
      created_to: '2026-11-20T09:00:02.999-03:00',
      limit: 100,
    });
    expect(offset.items.map((w) => w.id)).toEqual(newestFirst(rows.filter((r) => r.atMs === BASE + 1000 || r.atMs === BASE + 2000)));
  });

  it("refuses a cursor used by another partner or with other filters, and never answers another partner's withdrawals", async () => {
    const partnerId = testPartnerId();
    const other = testPartnerId();
    const rows = await seed(partnerId, 6);
    await seed(other, 6);
    const first = await list.execute({ partner_id: partnerId, limit: 2 });
    const cursor = first.ok ? (first.data.next_cursor ?? undefined) : undefined;
    expect(cursor).toEqual(expect.any(String));
    const refused = { ok: false, error: { code: 'invalid_request', field: 'cursor', message: expect.any(String) } };
    expect(await list.execute({ partner_id: other, limit: 2, cursor })).toEqual(refused);
    expect(await list.execute({ partner_id: partnerId, limit: 2, cursor, state: 'sent' })).toEqual(refused);
    expect(await list.execute({ partner_id: partnerId, limit: 2, cursor, created_to: '2030-01-01T00:00:00Z' })).toEqual(refused);
    const mine = await everyPage({ partner_id: partnerId, limit: 4 });
    expect(mine.items.map((w) => w.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });
});
