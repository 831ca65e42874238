import { RefundPixInCommand, Topics } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { outboxEventsOf, selectRows, testPartnerId } from '@partner/testing';
import { PixApiTestServer } from '@partner/pix-api-test-server';
import { randomUUID } from 'node:crypto';
import { AccountRepository } from '../accounts/account.repository';
import { creditInflow, CreditedInflow } from '../accounts/accounts.spec-support';
import { GetBrlLedgerUseCase } from '../accounts/brl-balance.use-cases';
import { SetAccountStatusUseCase } from '../accounts/set-account-status.use-case';
import { InflowsConfig } from '../config/inflows.config';
import { MedCaseReturns } from '../med-cases/med-case-returns';
import { MedCaseRepository } from '../med-cases/med-case.repository';
import { DB_SCHEMA } from '../database/db-schema';
import { pixApiForSpec } from './pix-api.spec-support';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { GetPixInflowUseCase } from './get-pix-inflow.use-case';
import { PixApiRefunds } from './pix-api-refunds';
import { PixInRefundRepository } from './pix-in-refund.repository';
import { RefundPixInUseCase } from './refund-pix-in.use-case';
import { SendPixInRefundsUseCase } from './send-pix-in-refunds.use-case';

// Integration: the inflows schema in PostgreSQL and the production Pix API adapter against the Pix API test server
// (tools/pix-api-test-server: the Central Bank's document, vendor/bacen-pix-api). Each test has a partner and user of its own.
jest.setTimeout(30_000);
let server: PixApiTestServer;
let config: InflowsConfig;
let db: Database;
let refund: RefundPixInUseCase;
let send: SendPixInRefundsUseCase;
let get: GetPixInflowUseCase;
let adapter: PixApiRefunds;
let accounts: AccountRepository;
let unitOfWork: UnitOfWork;

beforeAll(async () => {
  ({ server, config } = await pixApiForSpec('inflows-spec'));
  db = new Database(config, DB_SCHEMA);
  unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  const inflows = new PixInflowRepository(db);
  const refunds = new PixInRefundRepository(db);
  accounts = new AccountRepository(db);
  adapter = new PixApiRefunds(config);
  refund = new RefundPixInUseCase(config, unitOfWork, inflows, refunds, accounts);
  send = new SendPixInRefundsUseCase(
    config,
    unitOfWork,
    refunds,
    inflows,
    accounts,
    adapter,
    new MedCaseReturns(new MedCaseRepository(db), inflows, accounts),
  );
  get = new GetPixInflowUseCase(unitOfWork, inflows, refunds);
});

afterAll(async () => {
  await adapter.onModuleDestroy();
  await server.close();
  await db.close();
});

type Credited = CreditedInflow;

/** A new user's account with a Pix of `cents` credited to it (and known to the provider, settled `settledAt`). */
async function credited(cents: number, settledAt = new Date()): Promise<Credited> {
  const c = await creditInflow(db, config, cents);
  server.receive(c.endToEndId, cents, settledAt);
  return c;
}

const ask = (c: Credited, amount: number, overrides: Partial<RefundPixInCommand> = {}) =>
  refund.execute({
    partner_id: c.partnerId,
    end_to_end_id: c.endToEndId,
    idempotency_key: randomUUID(),
    amount_cents: amount,
    reason: 'order cancelled',
    ...overrides,
  });

async function created(c: Credited, amount: number): Promise<number> {
  const reply = await ask(c, amount);
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data.id;
}

const balanceOf = async (c: Credited) => (await accounts.find(c.partnerId, c.document))?.availableBrlCents;

async function readBack(c: Credited) {
  const reply = await get.execute({ partner_id: c.partnerId, end_to_end_id: c.endToEndId });
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data;
}

/** Runs the refunds' round until the refund reaches `status` (polled, with a deadline). */
async function untilRefund(c: Credited, id: number, status: string, deadlineMs = 10_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    await send.execute();
    const found = (await readBack(c)).refunds.find((r) => r.id === id);
    if (found?.status === status) return found;
    if (Date.now() > until) throw new Error(`refund ${id} is ${found?.status}, not ${status}, after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The states of the partner's events on `topic` waiting in the outbox, in commit order. */
async function statesOf(
  partnerId: string,
  topic: typeof Topics.PixInRefundStateChanged | typeof Topics.PixInStateChanged,
): Promise<string[]> {
  const rows = await selectRows<{ topic: string; payload: unknown }>(
    db,
    'SELECT topic, payload FROM outbox_messages WHERE topic = $1 ORDER BY id',
    [topic],
  );
  return topic === Topics.PixInStateChanged
    ? outboxEventsOf(Topics.PixInStateChanged, rows, partnerId).map((e) => e.state)
    : outboxEventsOf(Topics.PixInRefundStateChanged, rows, partnerId).map((e) => e.state);
}

async function ledgerOf(c: Credited) {
  const reply = await new GetBrlLedgerUseCase(accounts).execute({ partner_id: c.partnerId, document: c.document });
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data.entries.map((e) => [e.type, e.available_delta_cents, e.available_after_cents]).reverse();
}

describe('refunds of Pix inflows (PostgreSQL, the Pix API test server)', () => {
  it('a partial refund debits the balance at once with its event, is returned by a devolução, and the inflow is partially_returned', async () => {
    const c = await credited(10_000);
    const id = await created(c, 2_500);
    expect(await balanceOf(c)).toBe(7_500n);
    expect((await readBack(c)).refunds).toEqual([
      expect.objectContaining({ id, amount_cents: 2_500, status: 'created', reason: 'order cancelled' }),
    ]);

    const done = await untilRefund(c, id, 'success');
    expect(done.return_id).toMatch(/^D\d{20}[a-zA-Z0-9]{11}$/);
    const inflow = await readBack(c);
    expect(inflow).toMatchObject({ status: 'partially_returned', amount_cents: 10_000, refunded_cents: 2_500, returned_cents: 2_500 });
    expect(server.devolucoesOf(c.endToEndId)).toEqual([
      expect.objectContaining({ valor: '25.00', natureza: 'ORIGINAL', descricao: 'order cancelled', status: 'DEVOLVIDO' }),
    ]);
    expect(await statesOf(c.partnerId, Topics.PixInRefundStateChanged)).toEqual(['created', 'processing', 'success']);
    expect((await statesOf(c.partnerId, Topics.PixInStateChanged)).slice(-2)).toEqual(['credited', 'partially_returned']);
    expect(await ledgerOf(c)).toEqual([
      ['pix_in_credit', 10_000, 10_000],
      ['pix_in_refund', -2_500, 7_500],
    ]);
    // Every request the adapter made conformed to the Central Bank's document.
    expect(server.violations()).toEqual([]);
  });

  it('reads an inflow and its refunds at one moment: a refund settled between the two reads is not shown beside the inflow before it', async () => {
    const c = await credited(10_000);
    const id = await created(c, 2_500);
    // Right after the inflow is read, the rounds return the refund and settle it (committed on other connections).
    const inflows = new PixInflowRepository(db);
    const read = inflows.find.bind(inflows);
    inflows.find = async (...args) => {
      const found = await read(...args);
      await untilRefund(c, id, 'success');
      return found;
    };
    const racing = await new GetPixInflowUseCase(unitOfWork, inflows, new PixInRefundRepository(db)).execute({
      partner_id: c.partnerId,
      end_to_end_id: c.endToEndId,
    });

    // Both as they were before the settlement (not a settled refund beside an inflow with nothing returned)...
    expect(racing).toMatchObject({ ok: true, data: { status: 'credited', returned_cents: 0, refunds: [{ id, status: 'created' }] } });
    // ...and both after it on the next read.
    expect(await readBack(c)).toMatchObject({ status: 'partially_returned', returned_cents: 2_500, refunds: [{ id, status: 'success' }] });
  });

  it('refunds add up to the whole inflow (returned), and not a cent more (refund_exceeds_amount, nothing written)', async () => {
    const c = await credited(1_000);
    const first = await created(c, 600);
    const over = await ask(c, 401);
    expect(over).toEqual({
      ok: false,
      error: {
        code: 'refund_exceeds_amount',
        message: 'refunding 401 cents would exceed the inflow: 1000 received, 600 refunded, 400 left',
        field: 'amount_cents',
      },
    });
    const second = await created(c, 400);
    await untilRefund(c, first, 'success');
    await untilRefund(c, second, 'success');
    expect(await readBack(c)).toMatchObject({ status: 'returned', refunded_cents: 1_000, returned_cents: 1_000 });
    expect(await balanceOf(c)).toBe(0n);
    expect((await ask(c, 1)).ok).toBe(false);
  });

  it('16 concurrent refunds never return more than the inflow: exactly the ones that fit are created', async () => {
    const c = await credited(1_000);
    const replies = await Promise.all(Array.from({ length: 16 }, () => ask(c, 150)));
    const made = replies.filter((r) => r.ok);
    expect(made).toHaveLength(6);
    expect(replies.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(Array(10).fill('refund_exceeds_amount'));
    expect(await readBack(c)).toMatchObject({ refunded_cents: 900 });
    expect(await balanceOf(c)).toBe(100n);
  });

  it('replays an idempotency key with the first refund (created: false), and refuses it for another refund', async () => {
    const c = await credited(5_000);
    const key = randomUUID();
    const first = await ask(c, 1_000, { idempotency_key: key });
    const again = await ask(c, 1_000, { idempotency_key: key });
    expect(first).toEqual({ ok: true, data: { id: expect.any(Number), status: 'created', created: true } });
    expect(again).toEqual({ ok: true, data: { id: first.ok && first.data.id, status: 'created', created: false } });
    expect(await ask(c, 999, { idempotency_key: key })).toMatchObject({
      ok: false,
      error: { code: 'idempotency_key_reused', field: 'idempotency_key' },
    });
    expect(await balanceOf(c)).toBe(4_000n);
    // 8 at once with one key make one refund.
    const key2 = randomUUID();
    const replies = await Promise.all(Array.from({ length: 8 }, () => ask(c, 100, { idempotency_key: key2 })));
    expect(new Set(replies.map((r) => r.ok && r.data.id)).size).toBe(1);
    expect(replies.filter((r) => r.ok && r.data.created)).toHaveLength(1);
    expect(await balanceOf(c)).toBe(3_900n);
  });

  it("refuses an inflow past 90 days (refund_window_closed), one not credited (pix_in_not_refundable), another partner's (not_found)", async () => {
    const c = await credited(5_000);
    await db.query("UPDATE pix_inflows SET created_at = now() - interval '91 days' WHERE end_to_end_id = $1", [c.endToEndId]);
    expect(await ask(c, 100)).toMatchObject({ ok: false, error: { code: 'refund_window_closed' } });

    const settling = await credited(5_000);
    await db.query(`UPDATE pix_inflows SET status = 'success' WHERE end_to_end_id = $1`, [settling.endToEndId]);
    expect(await ask(settling, 100)).toMatchObject({
      ok: false,
      error: {
        code: 'pix_in_not_refundable',
        message: `pix inflow ${settling.endToEndId} is success: only a credited inflow can be refunded`,
      },
    });

    const other = await credited(5_000);
    expect(await ask({ ...other, partnerId: testPartnerId() }, 100)).toMatchObject({
      ok: false,
      error: { code: 'not_found', field: 'end_to_end_id' },
    });
    expect(await balanceOf(other)).toBe(5_000n);
  });

  it("refuses a refund the user's balance does not cover (insufficient_funds), nothing written", async () => {
    const c = await credited(5_000);
    // The balance spent elsewhere (a later version pays Pix out): here, taken down by hand.
    await db.query('UPDATE accounts SET available_brl_cents = 300 WHERE partner_id = $1 AND document = $2', [c.partnerId, c.document]);
    expect(await ask(c, 301)).toMatchObject({ ok: false, error: { code: 'insufficient_funds', field: 'amount_cents' } });
    expect(await readBack(c)).toMatchObject({ refunded_cents: 0, refunds: [] });
    expect((await ask(c, 300)).ok).toBe(true);
    expect(await balanceOf(c)).toBe(0n);
  });

  it('a devolução the provider does not make (NAO_REALIZADO) fails the refund with its reason and credits the amount back', async () => {
    const c = await credited(2_000);
    server.refuseNextOf(c.endToEndId, 'Negado por timeout');
    const id = await created(c, 2_000);
    const failed = await untilRefund(c, id, 'failed');
    expect(failed.failure_reason).toBe('Negado por timeout');
    expect(await balanceOf(c)).toBe(2_000n);
    expect(await readBack(c)).toMatchObject({ status: 'credited', refunded_cents: 0, returned_cents: 0 });
    expect(await ledgerOf(c)).toEqual([
      ['pix_in_credit', 2_000, 2_000],
      ['pix_in_refund', -2_000, 0],
      ['pix_in_refund_reversal', 2_000, 2_000],
    ]);
    expect(await statesOf(c.partnerId, Topics.PixInRefundStateChanged)).toEqual(['created', 'processing', 'failed']);
    // Its cents are free again.
    expect((await ask(c, 2_000)).ok).toBe(true);
  });

  it('a request the provider refuses (over what it has of the Pix) fails at once with its words, credited back', async () => {
    const c = await credited(2_000);
    server.receive(c.endToEndId, 1_000); // the provider knows the Pix for less than we do
    const id = await created(c, 1_500);
    const failed = await untilRefund(c, id, 'failed');
    expect(failed.failure_reason).toMatch(
      /^the Pix provider refused the return: Devolução inválida; a devolução de 15.00 excederia o valor do pix/,
    );
    expect(await balanceOf(c)).toBe(2_000n);
  });

  it('a lost answer is read back, never asked twice: one devolução, returned once, nothing credited back', async () => {
    const c = await credited(3_000);
    server.loseNextAnswerOf(c.endToEndId);
    const id = await created(c, 3_000);
    await untilRefund(c, id, 'success');
    expect(server.devolucoesOf(c.endToEndId)).toHaveLength(1);
    const puts = server.requests.filter((r) => r.method === 'PUT' && r.path.startsWith(`/pix/${c.endToEndId}/`));
    expect(puts).toHaveLength(1);
    expect(await balanceOf(c)).toBe(0n);
    expect(await readBack(c)).toMatchObject({ status: 'returned' });
  });

  it('a round whose transaction is lost after the provider took the devolução reads it back: returned once, never credited back', async () => {
    const c = await credited(3_000);
    const id = await created(c, 3_000);
    // The process dies, or its commit fails, after the PUT reached the provider: nothing of that attempt is kept
    // here but its count (the claim's).
    const settle = jest
      .spyOn(send['refunds'], 'settle')
      .mockRejectedValueOnce(new Error('the connection to PostgreSQL ended before the commit'));
    try {
      await expect(send.execute()).rejects.toThrow('before the commit');
    } finally {
      settle.mockRestore();
    }
    expect(server.devolucoesOf(c.endToEndId)).toHaveLength(1);
    await untilRefund(c, id, 'success');
    expect(server.devolucoesOf(c.endToEndId)).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === 'PUT' && r.path.startsWith(`/pix/${c.endToEndId}/`))).toHaveLength(1);
    expect(await balanceOf(c)).toBe(0n);
    expect((await ledgerOf(c)).map(([type]) => type)).not.toContain('pix_in_refund_reversal');
    expect(await readBack(c)).toMatchObject({ status: 'returned' });
  });

  it('an account with a refund under way cannot be closed, even at a zero balance (a failure would credit it back)', async () => {
    const c = await credited(1_000);
    const id = await created(c, 1_000);
    const close = () =>
      new SetAccountStatusUseCase(new UnitOfWork(db, { wake: () => undefined }), accounts).execute({
        partner_id: c.partnerId,
        document: c.document,
        status: 'closed',
        reason: 'customer left',
        by: 'spec',
        asked_at: new Date().toISOString(),
      });
    expect(await balanceOf(c)).toBe(0n);
    expect(await close()).toMatchObject({ ok: false, error: { code: 'account_not_empty' } });
    await untilRefund(c, id, 'success');
    expect(await close()).toMatchObject({ ok: true, data: { status: 'closed' } });
  });

  it('an unavailable provider keeps the refund created and retries; one never accepted is failed once the provider says it has none', async () => {
    const c = await credited(1_000);
    server.unavailableNext(2);
    const id = await created(c, 400);
    await untilRefund(c, id, 'success');
    expect(server.devolucoesOf(c.endToEndId)).toHaveLength(1);

    const d = await credited(1_000);
    server.unavailableNext(1_000);
    const never = await created(d, 400);
    for (let i = 0; i < 3; i++) await untilAttempted(never, i + 1);
    server.unavailableNext(-server.pendingUnavailable());
    const failed = await untilRefund(d, never, 'failed');
    // At least PIX_API_MAX_ATTEMPTS (3): a round may make one more unanswered attempt before the outage is lifted.
    const attempts = /^the Pix provider did not accept the return after (\d+) attempts$/.exec(failed.failure_reason ?? '');
    expect(Number(attempts?.[1])).toBeGreaterThanOrEqual(3);
    expect(server.devolucoesOf(d.endToEndId)).toEqual([]);
    expect(await balanceOf(d)).toBe(1_000n);
  });

  it('holds no row lock and no connection while the provider answers: the refund is written meanwhile, then settled', async () => {
    const c = await credited(1_000);
    const id = await created(c, 400);
    server.delayAnswersOf(c.endToEndId, 1_500);
    let stop = false;
    const rounds = (async () => {
      while (!stop) {
        await send.execute();
        await sleep(10);
      }
    })();
    try {
      // The read back before the request has reached the provider, whose answer takes 1.5 s.
      await until(() => callsOf(c).length > 0);
      const held = db.pool.totalCount - db.pool.idleCount;
      const other = await db.connect();
      try {
        await other.query('BEGIN');
        await other.query(`SET LOCAL lock_timeout = '200ms'`);
        const written = await other.query('UPDATE pix_in_refunds SET updated_at = updated_at WHERE id = $1', [id]);
        await other.query('COMMIT');
        expect(written.rowCount).toBe(1);
      } catch (error) {
        await other.query('ROLLBACK');
        throw error;
      } finally {
        other.release();
      }
      expect(held).toBe(0);
      expect(callsOf(c)).toEqual(['GET']);
    } finally {
      server.delayAnswersOf(c.endToEndId, 0);
      stop = true;
      await rounds;
    }
    await untilRefund(c, id, 'success');
    expect(callsOf(c).filter((m) => m === 'PUT')).toHaveLength(1);
    expect(await readBack(c)).toMatchObject({ status: 'partially_returned', returned_cents: 400 });
  });

  it('an attempt that outlived its lease records nothing: the refund is settled by a later claim, read back', async () => {
    const c = await credited(1_000);
    const id = await created(c, 500);
    server.delayAnswersOf(c.endToEndId, 300);
    const round = send.execute();
    try {
      await until(() => callsOf(c).length > 0);
      // Meanwhile its lease ended and another round claimed it (and died, its lease over in a second): the refund
      // is that attempt's now.
      await db.query(`UPDATE pix_in_refunds SET attempts = attempts + 1, next_attempt_at = now() + interval '1 second' WHERE id = $1`, [
        id,
      ]);
    } finally {
      await round;
      server.delayAnswersOf(c.endToEndId, 0);
    }
    expect(callsOf(c)).toEqual(['GET', 'PUT']);
    expect(await selectRows(db, 'SELECT status, attempts FROM pix_in_refunds WHERE id = $1', [id])).toEqual([
      { status: 'created', attempts: 2 },
    ]);
    expect(await statesOf(c.partnerId, Topics.PixInRefundStateChanged)).toEqual(['created']);
    await untilRefund(c, id, 'success');
    expect(callsOf(c).filter((m) => m === 'PUT')).toHaveLength(1);
    expect(await readBack(c)).toMatchObject({ status: 'partially_returned', returned_cents: 500 });
    // Read back processing or already returned: never failed, never credited back.
    expect(await statesOf(c.partnerId, Topics.PixInRefundStateChanged)).not.toContain('failed');
    expect((await ledgerOf(c)).map(([type]) => type)).toEqual(['pix_in_credit', 'pix_in_refund']);
  });

  it('two rounds at once never ask one refund twice: each refund is read back and asked once, by one of them', async () => {
    const cs: Credited[] = [];
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      cs.push(await credited(1_000));
      ids.push(await created(cs[i], 300));
      // Slow answers, so both rounds are at work together.
      server.delayAnswersOf(cs[i].endToEndId, 100);
    }
    try {
      await Promise.all([send.execute(), send.execute()]);
    } finally {
      for (const c of cs) server.delayAnswersOf(c.endToEndId, 0);
    }
    // Each read back once, then asked once (a later GET is a poll of the processing devolução).
    for (const c of cs) expect(callsOf(c).slice(0, 2)).toEqual(['GET', 'PUT']);
    for (const [i, c] of cs.entries()) await untilRefund(c, ids[i], 'success');
    for (const c of cs) {
      expect(callsOf(c).filter((m) => m === 'PUT')).toHaveLength(1);
      expect(server.devolucoesOf(c.endToEndId)).toHaveLength(1);
      expect((await ledgerOf(c)).map(([type]) => type)).toEqual(['pix_in_credit', 'pix_in_refund']);
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds (polled, with a deadline). */
async function until(done: () => boolean, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not done after ${deadlineMs} ms`);
    await sleep(10);
  }
}

/** The methods of the calls the provider received about the inflow's devoluções, in order. */
const callsOf = (c: Credited): string[] =>
  server.requests.filter((r) => r.path.startsWith(`/pix/${c.endToEndId}/devolucao/`)).map((r) => r.method);

describe('PixInflowRepository, the refunds of an inflow (PostgreSQL)', () => {
  const locked = async (c: Credited) => {
    const inflows = new PixInflowRepository(db);
    return unitOfWork.run(async (tx) => {
      const inflow = await inflows.lockForPartner(tx, c.partnerId, c.endToEndId);
      if (!inflow) throw new Error(`no inflow ${c.endToEndId}`);
      return { inflows, inflow };
    });
  };

  it('reserving past the amount throws on the CHECK pix_inflows_refunds_within_amount, nothing written', async () => {
    const c = await credited(1_000);
    const { inflows, inflow } = await locked(c);
    await expect(unitOfWork.run((tx) => inflows.reserveRefund(tx, inflow, 1_001n))).rejects.toThrow(
      `refunding 1001 cents of inflow ${c.endToEndId} would pass its amount (pix_inflows_refunds_within_amount)`,
    );
    expect(await inflows.find(c.partnerId, c.endToEndId)).toMatchObject({ refundedCents: 0n });
    expect(await unitOfWork.run((tx) => inflows.reserveRefund(tx, inflow, 1_000n))).toMatchObject({ refundedCents: 1_000n });
  });

  it('counting a return writes the status it is given: the use case decides it (statusAfterReturn), not the statement', async () => {
    const c = await credited(1_000);
    const { inflows, inflow } = await locked(c);
    await unitOfWork.run((tx) => inflows.reserveRefund(tx, inflow, 1_000n));
    const now = new Date();
    const counted = await unitOfWork.run((tx) => inflows.countReturn(tx, inflow, 1_000n, 'blocked', now));
    expect(counted).toMatchObject({ status: 'blocked', refundedCents: 1_000n, returnedCents: 1_000n, updatedAt: now });
  });
});

/** Runs rounds until the refund has been tried `attempts` times (polled, with a deadline). */
async function untilAttempted(id: number, attempts: number): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    await send.execute();
    const [row] = await selectRows<{ attempts: number }>(db, 'SELECT attempts FROM pix_in_refunds WHERE id = $1', [id]);
    if (row.attempts >= attempts) return;
    if (Date.now() > until) throw new Error(`refund ${id} tried ${row.attempts} times, not ${attempts}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
