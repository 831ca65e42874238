import { loadConfig } from '@partner/config';
import { Database, UnitOfWork } from '@partner/db';
import { pollUntil, selectRows } from '@partner/testing';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { payoutFixtures, payoutKit } from '../payouts/payout-kit.spec-support';
import { CreateWithdrawalReportUseCase } from './create-withdrawal-report.use-case';
import { FileWithdrawalReportUseCase } from './file-withdrawal-report.use-case';
import { GetWithdrawalReportUseCase } from './get-withdrawal-report.use-case';
import { WithdrawalReportRepository } from './withdrawal-report.repository';

// Integration: the withdrawals schema in PostgreSQL and the local chains: the reported withdrawals were paid there.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const reports = new WithdrawalReportRepository(db);
const create = new CreateWithdrawalReportUseCase(unitOfWork, reports);
const get = new GetWithdrawalReportUseCase(reports);
const file = new FileWithdrawalReportUseCase(unitOfWork, reports);
const kit = payoutKit(config, db);
const { withdraw, eventStates } = payoutFixtures(db);

afterAll(() => db.close());
beforeAll(() => kit.rounds.checkChains());

const by = 'ops (adm_test)';
const asked = () => new Date().toISOString();
const seconds = (ms: number) => Math.floor(ms / 1000);
const settledBetween = async (from: number, to: number) =>
  (
    await selectRows<{ id: number }>(
      db,
      `SELECT id FROM withdrawals WHERE state = 'settled' AND settled_at >= to_timestamp($1) AND settled_at < to_timestamp($2) ORDER BY id`,
      [from, to],
    )
  ).map((r) => r.id);
const stateOf = async (id: number) =>
  (await selectRows<{ state: string; report_id: string | null }>(db, 'SELECT state, report_id FROM withdrawals WHERE id = $1', [id]))[0];

describe('reports of settled withdrawals to the Receita Federal, and `reported` (PostgreSQL + the local chains)', () => {
  it("a report's rows are the withdrawals settled in its period; filing moves each settled → reported once, never in two filed reports", async () => {
    const from = seconds(Date.now()) - 1;
    const paid = [await withdraw('ETH', 1_300_000), await withdraw('ETH', 1_400_000)];
    await kit.until(
      paid.map((w) => w.id),
      ['settled'],
    );
    const to = seconds(Date.now()) + 1;
    // The period must be over when the report is made: its end (to) passed on the clock.
    await pollUntil(
      'the period over',
      async () => Date.now(),
      (now) => now > to * 1000,
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    const expected = await settledBetween(from, to);
    expect(expected).toEqual(expect.arrayContaining(paid.map((w) => w.id)));

    const first = await create.execute({ from, to, by, asked_at: asked() });
    const second = await create.execute({ from, to, by, asked_at: asked() });
    if (!first.ok || !second.ok) throw new Error('refused');
    expect(first.data.withdrawals).toBe(expected.length);
    const page = await get.execute({ report_id: first.data.id, after: 0, limit: 1000 });
    expect(page).toMatchObject({
      ok: true,
      data: { withdrawals: expected.length, filed_at: null, lacks: ['brl_value', 'brl_fee'], next_cursor: null },
    });
    if (!page.ok) throw new Error('not found');
    expect(page.data.rows.map((r) => r.withdrawal_id)).toEqual(expected);
    const mine = page.data.rows.find((r) => r.withdrawal_id === paid[0].id);
    expect(mine).toMatchObject({
      asset: 'USDT',
      network: 'ETH',
      usdt_micros: 1_300_000,
      fee_usdt_micros: 2_000_000,
      document: paid[0].document,
    });
    expect(mine?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // Paged by withdrawal id.
    const firstRow = await get.execute({ report_id: first.data.id, after: 0, limit: 1 });
    expect(firstRow).toMatchObject({
      ok: true,
      data: { rows: [{ withdrawal_id: expected[0] }], next_cursor: expected.length > 1 ? expected[0] : null },
    });

    const filed = await file.execute({ report_id: first.data.id, receipt: '12.34.56.78.90-12', by, asked_at: asked() });
    expect(filed).toMatchObject({ ok: true, data: { receipt: '12.34.56.78.90-12', filed_by: by, filed_at: expect.any(Number) } });
    for (const w of paid) {
      expect(await stateOf(w.id)).toEqual({ state: 'reported', report_id: first.data.id });
      expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled', 'reported']);
    }
    // Once: the same receipt again changes nothing; another receipt is refused.
    expect(await file.execute({ report_id: first.data.id, receipt: '12.34.56.78.90-12', by, asked_at: asked() })).toMatchObject({
      ok: true,
    });
    expect(await eventStates(paid[0].id)).toEqual(['created', 'sent', 'settled', 'reported']);
    expect(await file.execute({ report_id: first.data.id, receipt: 'another', by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transition' },
    });
    // The second report holds the same withdrawals (and any other spec's settled in the period, reported too): filing
    // it is refused, naming the report that holds them; nothing moves.
    expect(await file.execute({ report_id: second.data.id, receipt: '99', by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transition', message: expect.stringContaining(`(reported in report ${first.data.id})`) },
    });
    for (const w of paid) expect(await stateOf(w.id)).toEqual({ state: 'reported', report_id: first.data.id });
    expect(await get.execute({ report_id: second.data.id, after: 0, limit: 1 })).toMatchObject({ ok: true, data: { filed_at: null } });
    // A new report of the period holds none of them.
    const third = await create.execute({ from, to, by, asked_at: asked() });
    expect(third).toMatchObject({ ok: true, data: { withdrawals: 0 } });
  });

  it('refuses a period not over yet, or one that ends before it starts', async () => {
    const now = seconds(Date.now());
    expect(await create.execute({ from: now - 60, to: now + 3600, by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'to' },
    });
    expect(await create.execute({ from: now - 60, to: now - 120, by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'to' },
    });
  });
});
