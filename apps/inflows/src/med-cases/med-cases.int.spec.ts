import { DecideMedCaseCommand, MedCaseCancelledEvent, MedCaseReceivedEvent, Topics } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { PixApiTestServer } from '@partner/pix-api-test-server';
import { outboxEventsOf, pollUntil, selectRows } from '@partner/testing';
import { randomUUID } from 'node:crypto';
import { AccountRepository } from '../accounts/account.repository';
import { creditInflow, CreditedInflow } from '../accounts/accounts.spec-support';
import { GetBrlLedgerUseCase } from '../accounts/brl-balance.use-cases';
import { SetAccountStatusUseCase } from '../accounts/set-account-status.use-case';
import { InflowsConfig } from '../config/inflows.config';
import { DB_SCHEMA } from '../database/db-schema';
import { pixApiForSpec } from '../pix-in-refunds/pix-api.spec-support';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { PixApiRefunds } from '../pix-in-refunds/pix-api-refunds';
import { PixInRefundRepository } from '../pix-in-refunds/pix-in-refund.repository';
import { RefundPixInUseCase } from '../pix-in-refunds/refund-pix-in.use-case';
import { SendPixInRefundsUseCase } from '../pix-in-refunds/send-pix-in-refunds.use-case';
import { CancelMedCaseUseCase } from './cancel-med-case.use-case';
import { DecideMedCaseUseCase } from './decide-med-case.use-case';
import { ListMedCasesUseCase } from './list-med-cases.use-case';
import { MedCaseReturns } from './med-case-returns';
import { MedCaseRepository } from './med-case.repository';
import { ReceiveMedCaseUseCase } from './receive-med-case.use-case';

// Integration: the inflows schema in PostgreSQL; a MED devolução goes to the Pix API test server through the production
// adapter and the refunds' round. Each test has a partner and user of its own.
jest.setTimeout(30_000);
let server: PixApiTestServer;
let config: InflowsConfig;
let db: Database;
let receive: ReceiveMedCaseUseCase;
let decide: DecideMedCaseUseCase;
let cancel: CancelMedCaseUseCase;
let list: ListMedCasesUseCase;
let send: SendPixInRefundsUseCase;
let refund: RefundPixInUseCase;
let adapter: PixApiRefunds;
let accounts: AccountRepository;
let inflows: PixInflowRepository;
let unitOfWork: UnitOfWork;

beforeAll(async () => {
  ({ server, config } = await pixApiForSpec('med-spec'));
  db = new Database(config, DB_SCHEMA);
  unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  inflows = new PixInflowRepository(db);
  accounts = new AccountRepository(db);
  const cases = new MedCaseRepository(db);
  const refunds = new PixInRefundRepository(db);
  adapter = new PixApiRefunds(config);
  receive = new ReceiveMedCaseUseCase(unitOfWork, cases, inflows, accounts);
  cancel = new CancelMedCaseUseCase(unitOfWork, cases, inflows, accounts);
  decide = new DecideMedCaseUseCase(config, unitOfWork, cases, inflows, refunds, accounts);
  list = new ListMedCasesUseCase(cases);
  send = new SendPixInRefundsUseCase(config, unitOfWork, refunds, inflows, accounts, adapter, new MedCaseReturns(cases, inflows, accounts));
  refund = new RefundPixInUseCase(config, unitOfWork, inflows, refunds, accounts);
});

afterAll(async () => {
  await adapter.onModuleDestroy();
  await server.close();
  await db.close();
});

/** A new user with a Pix of `cents` credited (known to the provider too). */
async function credited(cents: number, to?: CreditedInflow): Promise<CreditedInflow> {
  const c = await creditInflow(db, config, cents, to);
  server.receive(c.endToEndId, cents);
  return c;
}

const report = (c: CreditedInflow, overrides: Partial<MedCaseReceivedEvent> = {}): MedCaseReceivedEvent => ({
  case_id: randomUUID(),
  kind: 'infraction_report',
  end_to_end_id: c.endToEndId,
  reason: 'FRAUD',
  amount_cents: null,
  details: 'golpe do falso parente',
  infraction_report_id: null,
  opened_by: '60701190',
  opened_at: new Date().toISOString(),
  ...overrides,
});

const request = (c: CreditedInflow, cents: number, reportId: string | null = null): MedCaseReceivedEvent =>
  report(c, { kind: 'refund_request', amount_cents: cents, infraction_report_id: reportId });

/** The pix-keys service's word that the case's opener cancelled it in DICT. */
const cancelled = (e: MedCaseReceivedEvent): MedCaseCancelledEvent => ({
  case_id: e.case_id,
  kind: e.kind,
  end_to_end_id: e.end_to_end_id,
  cancelled_at: new Date().toISOString(),
});

const decision = (e: MedCaseReceivedEvent, d: Partial<DecideMedCaseCommand>): DecideMedCaseCommand => ({
  case_id: e.case_id,
  decision: 'agree',
  details: 'analysed',
  by: 'spec (op_1234)',
  asked_at: new Date().toISOString(),
  ...d,
});

async function decided(e: MedCaseReceivedEvent, d: Partial<DecideMedCaseCommand>) {
  const reply = await decide.execute(decision(e, d));
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data;
}

async function balanceOf(c: CreditedInflow) {
  const account = await accounts.find(c.partnerId, c.document);
  return { available: Number(account?.availableBrlCents), blocked: Number(account?.blockedBrlCents) };
}

const inflowStatus = async (c: CreditedInflow) => (await inflows.find(c.partnerId, c.endToEndId))?.status;

async function caseOf(e: MedCaseReceivedEvent) {
  const reply = await list.execute({ limit: 200 });
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data.med_cases.find((m) => m.case_id === e.case_id);
}

async function ledgerOf(c: CreditedInflow) {
  const reply = await new GetBrlLedgerUseCase(accounts).execute({ partner_id: c.partnerId, document: c.document });
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data.entries
    .map((e) => [e.type, e.available_delta_cents, e.blocked_delta_cents, e.available_after_cents, e.blocked_after_cents])
    .reverse();
}

/** The case's med-case-changed events waiting in the outbox, in commit order. */
async function eventsOf(e: MedCaseReceivedEvent) {
  const rows = await selectRows<{ topic: string; payload: unknown }>(
    db,
    'SELECT topic, payload FROM outbox_messages WHERE topic = $1 ORDER BY id',
    [Topics.MedCaseChanged],
  );
  return outboxEventsOf(Topics.MedCaseChanged, rows).filter((m) => m.case_id === e.case_id);
}

async function pixInStates(c: CreditedInflow) {
  const rows = await selectRows<{ topic: string; payload: unknown }>(
    db,
    'SELECT topic, payload FROM outbox_messages WHERE topic = $1 ORDER BY id',
    [Topics.PixInStateChanged],
  );
  return outboxEventsOf(Topics.PixInStateChanged, rows, c.partnerId).map((m) => m.state);
}

/** A partner's refund of `cents` of the user's inflow. */
const ask = (of: CreditedInflow, cents: number) =>
  refund.execute({
    partner_id: of.partnerId,
    end_to_end_id: of.endToEndId,
    idempotency_key: randomUUID(),
    amount_cents: cents,
    reason: 'x',
  });

const refundStatus = async (id: number) =>
  (await selectRows<{ status: string }>(db, 'SELECT status FROM pix_in_refunds WHERE id = $1', [id]))[0]?.status;

/** Runs the refunds' round until the case reaches `status`. */
const untilCase = (e: MedCaseReceivedEvent, status: string) =>
  pollUntil(
    `MED case ${e.case_id} ${status}`,
    async () => {
      await send.execute();
      return caseOf(e);
    },
    (m) => m?.status === status,
    { timeoutMs: 10_000, intervalMs: 20 },
  );

describe('MED cases (PostgreSQL, the Pix API test server)', () => {
  it("an infraction report blocks the inflow's amount once: blocked balance, inflow blocked, one ledger line, one open event", async () => {
    const c = await credited(10_000);
    const e = report(c);
    await receive.execute(e);
    await receive.execute(e); // a redelivery: nothing more
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 10_000 });
    expect(await inflowStatus(c)).toBe('blocked');
    expect((await pixInStates(c)).slice(-2)).toEqual(['credited', 'blocked']);
    expect(await ledgerOf(c)).toEqual([
      ['pix_in_credit', 10_000, 0, 10_000, 0],
      ['med_block', -10_000, 10_000, 0, 10_000],
    ]);
    expect(await eventsOf(e)).toEqual([
      expect.objectContaining({ status: 'open', blocked_cents: 10_000, returned_cents: 0, dict_result: null, kind: 'infraction_report' }),
    ]);
    expect(await caseOf(e)).toMatchObject({
      status: 'open',
      asked_cents: 10_000,
      blocked_cents: 10_000,
      attention: null,
      partner_id: c.partnerId,
    });
  });

  it('a report on an account holding less than the amount blocks what is there, and says so', async () => {
    const c = await credited(10_000);
    await db.query('UPDATE accounts SET available_brl_cents = 3000 WHERE partner_id = $1 AND document = $2', [c.partnerId, c.document]);
    const e = report(c);
    await receive.execute(e);
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 3_000 });
    expect(await caseOf(e)).toMatchObject({ asked_cents: 10_000, blocked_cents: 3_000, attention: 'insufficient_funds' });
  });

  it('a payment no inflow has is recorded with nothing blocked and flagged, never dropped', async () => {
    const c = await credited(1_000);
    const e = report({ ...c, endToEndId: c.endToEndId.replace(/.{4}$/, 'zzzz') });
    await receive.execute(e);
    expect(await caseOf(e)).toMatchObject({ status: 'open', blocked_cents: 0, attention: 'inflow_unknown', partner_id: null });
    expect(await eventsOf(e)).toEqual([expect.objectContaining({ status: 'open', blocked_cents: 0 })]);
    expect(await balanceOf(c)).toEqual({ available: 1_000, blocked: 0 });
  });

  it('agreed, the report keeps the block; the refund request that follows takes it over (the excess released), no double block', async () => {
    const c = await credited(10_000);
    const r = report(c);
    await receive.execute(r);
    expect(await decided(r, { decision: 'agree' })).toMatchObject({ status: 'agreed', dict_result: 'AGREED', blocked_cents: 10_000 });
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 10_000 });
    const q = request(c, 4_000, r.case_id);
    await receive.execute(q);
    expect(await balanceOf(c)).toEqual({ available: 6_000, blocked: 4_000 });
    expect(await caseOf(q)).toMatchObject({ kind: 'refund_request', asked_cents: 4_000, blocked_cents: 4_000 });
    expect(await caseOf(r)).toMatchObject({ status: 'agreed', blocked_cents: 0 });
    expect((await ledgerOf(c)).slice(1)).toEqual([
      ['med_block', -10_000, 10_000, 0, 10_000],
      ['med_release', 6_000, -6_000, 6_000, 4_000],
    ]);
    expect((await eventsOf(r)).map((m) => m.dict_result)).toEqual([null, 'AGREED']);
  });

  it('accepted, the blocked cents are returned by devolução: returned, TOTALLY_ACCEPTED with its end-to-end id, inflow returned', async () => {
    const c = await credited(10_000);
    const q = request(c, 10_000);
    await receive.execute(q);
    expect(await decided(q, { decision: 'accept' })).toMatchObject({ status: 'returning', blocked_cents: 0, dict_result: null });
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 0 });
    const done = await untilCase(q, 'returned');
    expect(done).toMatchObject({
      dict_result: 'TOTALLY_ACCEPTED',
      returned_cents: 10_000,
      refund_transaction_id: expect.stringMatching(/^D\w{31}$/),
    });
    expect(server.devolucoesOf(c.endToEndId)).toEqual([
      expect.objectContaining({ valor: '100.00', natureza: 'ORIGINAL', status: 'DEVOLVIDO' }),
    ]);
    expect(await inflowStatus(c)).toBe('returned');
    expect((await pixInStates(c)).slice(-2)).toEqual(['blocked', 'returned']);
    expect((await eventsOf(q)).map((m) => [m.status, m.dict_result])).toEqual([
      ['open', null],
      ['returning', null],
      ['returned', 'TOTALLY_ACCEPTED'],
    ]);
    expect((await eventsOf(q))[2].refund_transaction_id).toBe(done?.refund_transaction_id);
    expect((await ledgerOf(c)).slice(1)).toEqual([
      ['med_block', -10_000, 10_000, 0, 10_000],
      ['med_return', 0, -10_000, 0, 0],
    ]);
    expect(server.violations()).toEqual([]);
  });

  it('a partial acceptance returns amount_cents and releases the rest at once: PARTIALLY_ACCEPTED, inflow partially_returned', async () => {
    const c = await credited(10_000);
    const q = request(c, 10_000);
    await receive.execute(q);
    await decided(q, { decision: 'accept', amount_cents: 4_000 });
    expect(await balanceOf(c)).toEqual({ available: 6_000, blocked: 0 });
    expect(await untilCase(q, 'returned')).toMatchObject({ dict_result: 'PARTIALLY_ACCEPTED', returned_cents: 4_000 });
    expect(await inflowStatus(c)).toBe('partially_returned');
    expect(await balanceOf(c)).toEqual({ available: 6_000, blocked: 0 });
  });

  it('disagree and reject release exactly what was blocked, the inflow credited again', async () => {
    const c = await credited(7_000);
    const r = report(c);
    await receive.execute(r);
    expect(await decided(r, { decision: 'disagree' })).toMatchObject({ status: 'disagreed', dict_result: 'DISAGREED', blocked_cents: 0 });
    expect(await balanceOf(c)).toEqual({ available: 7_000, blocked: 0 });
    expect(await inflowStatus(c)).toBe('credited');

    const q = request(c, 2_500);
    await receive.execute(q);
    expect(await balanceOf(c)).toEqual({ available: 4_500, blocked: 2_500 });
    expect(await decided(q, { decision: 'reject', rejection_reason: 'NO_BALANCE' })).toMatchObject({
      status: 'rejected',
      dict_result: 'REJECTED',
      rejection_reason: 'NO_BALANCE',
    });
    expect(await balanceOf(c)).toEqual({ available: 7_000, blocked: 0 });
    expect(await inflowStatus(c)).toBe('credited');
    expect((await pixInStates(c)).slice(-4)).toEqual(['blocked', 'credited', 'blocked', 'credited']);
  });

  it('a devolução the provider does not make puts the cents back in the blocked balance and the case open again', async () => {
    const c = await credited(3_000);
    const q = request(c, 3_000);
    await receive.execute(q);
    server.refuseNextOf(c.endToEndId, 'Negado por timeout');
    await decided(q, { decision: 'accept' });
    expect(await untilCase(q, 'open')).toMatchObject({ blocked_cents: 3_000, dict_result: null, returned_cents: 0 });
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 3_000 });
    expect(await inflowStatus(c)).toBe('blocked');
    expect((await ledgerOf(c)).slice(-2)).toEqual([
      ['med_return', 0, -3_000, 0, 0],
      ['med_return_reversal', 0, 3_000, 0, 3_000],
    ]);
    // Decided again: rejected this time, released.
    await decided(q, { decision: 'reject', rejection_reason: 'CANNOT_REFUND' });
    expect(await balanceOf(c)).toEqual({ available: 3_000, blocked: 0 });
  });

  it('refuses a decision on a decided case (409), an unknown one (404), one of the other kind (422), an acceptance over the block', async () => {
    const c = await credited(1_000);
    const r = report(c);
    await receive.execute(r);
    expect(await decide.execute(decision(r, { decision: 'accept' }))).toMatchObject({ ok: false, error: { code: 'med_decision_invalid' } });
    await decided(r, { decision: 'disagree' });
    expect(await decide.execute(decision(r, { decision: 'agree' }))).toMatchObject({ ok: false, error: { code: 'med_case_not_open' } });
    expect(await decide.execute(decision(report(c), {}))).toMatchObject({ ok: false, error: { code: 'med_case_not_found' } });
    const q = request(c, 500);
    await receive.execute(q);
    expect(await decide.execute(decision(q, { decision: 'accept', amount_cents: 501 }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_amount', field: 'amount_cents' },
    });
    expect(await balanceOf(c)).toEqual({ available: 500, blocked: 500 });
  });

  it("a partner's refund cannot take blocked cents, and an account with an open case cannot be closed", async () => {
    const c = await credited(10_000);
    const other = await credited(2_000, c);
    await receive.execute(report(c));
    expect(await balanceOf(c)).toEqual({ available: 2_000, blocked: 10_000 });
    expect(await ask(c, 100)).toMatchObject({ ok: false, error: { code: 'pix_in_not_refundable' } });
    expect(await ask(other, 2_000)).toMatchObject({ ok: true });
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 10_000 });
    const close = await new SetAccountStatusUseCase(unitOfWork, accounts).execute({
      partner_id: c.partnerId,
      document: c.document,
      status: 'closed',
      reason: 'customer left',
      by: 'spec',
      asked_at: new Date().toISOString(),
    });
    expect(close).toMatchObject({ ok: false, error: { code: 'account_not_empty' } });
  });

  it("a partner's refund and a MED block racing for one inflow never take the same cents", async () => {
    for (let i = 0; i < 4; i++) {
      const c = await credited(10_000);
      const e = report(c);
      const [asked] = await Promise.all([ask(c, 6_000), receive.execute(e)]);
      const { available, blocked } = await balanceOf(c);
      const refunded = asked.ok ? 6_000 : 0;
      expect(available + blocked + refunded).toBe(10_000);
      expect(blocked).toBe(10_000 - refunded);
      expect(await caseOf(e)).toMatchObject({ asked_cents: 10_000 - refunded, blocked_cents: 10_000 - refunded });
    }
  });

  it("a partner's refund settling while a case blocks the inflow leaves it blocked; the release makes it partially_returned", async () => {
    const c = await credited(10_000);
    const asked = await ask(c, 4_000);
    if (!asked.ok) throw new Error(JSON.stringify(asked.error));
    const r = report(c);
    await receive.execute(r);
    expect(await caseOf(r)).toMatchObject({ asked_cents: 6_000, blocked_cents: 6_000 });
    await pollUntil(
      `refund ${asked.data.id} success`,
      async () => {
        await send.execute();
        return (await selectRows<{ status: string }>(db, 'SELECT status FROM pix_in_refunds WHERE id = $1', [asked.data.id]))[0];
      },
      (row) => row.status === 'success',
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(await inflows.find(c.partnerId, c.endToEndId)).toMatchObject({
      status: 'blocked',
      refundedCents: 4_000n,
      returnedCents: 4_000n,
    });
    await decided(r, { decision: 'disagree' });
    expect(await inflowStatus(c)).toBe('partially_returned');
    expect(await balanceOf(c)).toEqual({ available: 6_000, blocked: 0 });
    expect((await pixInStates(c)).slice(-3)).toEqual(['blocked', 'blocked', 'partially_returned']);
  });

  it("a partner's refund failing while the operator releases a case of its inflow: both recorded, never a deadlock", async () => {
    const c = await credited(10_000);
    const asked = await ask(c, 4_000);
    if (!asked.ok) throw new Error(JSON.stringify(asked.error));
    server.refuseNextOf(c.endToEndId, 'Negado por timeout');
    const r = report(c);
    await receive.execute(r);
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 6_000 });
    // Asked of the provider (processing), which then does not make it: the next round fails the refund.
    await send.execute();
    expect(await refundStatus(asked.data.id)).toBe('processing');
    await pollUntil(
      'the devolução not made',
      async () => server.devolucoesOf(c.endToEndId),
      ([d]) => d?.status === 'NAO_REALIZADO',
      {
        timeoutMs: 5_000,
        intervalMs: 10,
      },
    );

    // The user's account held by another transaction, so that both wait on it in the order that used to deadlock:
    // the decision (the case, then the account, then the inflow) first, the refund's failure (the inflow, then
    // the account) second.
    const holder = await db.connect();
    const waitingOn = (pids: number[]) =>
      selectRows<{ pid: number }>(db, 'SELECT pid FROM pg_stat_activity WHERE pg_blocking_pids(pid) && $1::int[]', [pids]);
    let deciding: Promise<unknown> | undefined;
    let round: Promise<unknown> | undefined;
    try {
      await holder.query('BEGIN');
      const [{ pid: holderPid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      await holder.query('SELECT 1 FROM accounts WHERE partner_id = $1 AND document = $2 FOR UPDATE', [c.partnerId, c.document]);
      deciding = decide.execute(decision(r, { decision: 'disagree' }));
      const [decider] = await pollUntil(
        'the decision waiting',
        () => waitingOn([holderPid]),
        (rows) => rows.length === 1,
        {
          timeoutMs: 5_000,
          intervalMs: 10,
        },
      );
      round = send.execute();
      await pollUntil(
        'the refund failure waiting',
        () => waitingOn([holderPid, decider.pid]),
        (rows) => rows.length === 2,
        {
          timeoutMs: 5_000,
          intervalMs: 10,
        },
      );
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    // Each settled, or the error that ended it (a deadlock: "deadlock detected").
    const outcome = (settled: PromiseSettledResult<unknown>) => (settled.status === 'rejected' ? String(settled.reason) : settled.value);
    const [decided, rounded] = (await Promise.allSettled([deciding, round])).map(outcome);
    expect(decided).toMatchObject({ ok: true });
    expect(rounded).toEqual(expect.any(Number));
    expect(await caseOf(r)).toMatchObject({ status: 'disagreed', blocked_cents: 0 });
    expect(await refundStatus(asked.data.id)).toBe('failed');
    expect(await balanceOf(c)).toEqual({ available: 10_000, blocked: 0 });
    expect(await inflowStatus(c)).toBe('credited');
  });

  it('a blocked report its opener cancels releases the block exactly, the inflow credited again; a redelivery changes nothing', async () => {
    const c = await credited(8_000);
    const r = report(c);
    await receive.execute(r);
    expect(await balanceOf(c)).toEqual({ available: 0, blocked: 8_000 });
    await cancel.execute(cancelled(r));
    await cancel.execute(cancelled(r)); // a redelivery: nothing more
    expect(await balanceOf(c)).toEqual({ available: 8_000, blocked: 0 });
    expect(await inflowStatus(c)).toBe('credited');
    expect((await pixInStates(c)).slice(-3)).toEqual(['credited', 'blocked', 'credited']);
    expect((await ledgerOf(c)).slice(1)).toEqual([
      ['med_block', -8_000, 8_000, 0, 8_000],
      ['med_release', 8_000, -8_000, 8_000, 0],
    ]);
    expect((await eventsOf(r)).map((m) => [m.status, m.blocked_cents, m.dict_result])).toEqual([
      ['open', 8_000, null],
      ['cancelled', 0, null],
    ]);
    expect(await caseOf(r)).toMatchObject({ status: 'cancelled', blocked_cents: 0 });
    // A cancelled case is decided no more.
    expect(await decide.execute(decision(r, { decision: 'disagree' }))).toMatchObject({ ok: false, error: { code: 'med_case_not_open' } });
  });

  it('an agreed report still holding its block is cancelled too; the user’s other blocked inflow stays blocked', async () => {
    const c = await credited(10_000);
    const r = report(c);
    await receive.execute(r);
    await decided(r, { decision: 'agree' });
    const other = await credited(3_000, c);
    const o = report(other);
    await receive.execute(o);
    await cancel.execute(cancelled(r));
    expect(await caseOf(r)).toMatchObject({ status: 'cancelled', blocked_cents: 0, dict_result: 'AGREED' });
    expect((await eventsOf(r)).map((m) => [m.status, m.dict_result])).toEqual([
      ['open', null],
      ['agreed', 'AGREED'],
      ['cancelled', null],
    ]);
    expect(await balanceOf(c)).toEqual({ available: 10_000, blocked: 3_000 });
    expect(await inflowStatus(c)).toBe('credited');
    expect(await inflowStatus(other)).toBe('blocked');
  });

  it('a cancel after the case was accepted (or decided otherwise) changes nothing: the devolução goes on', async () => {
    const c = await credited(5_000);
    const q = request(c, 5_000);
    await receive.execute(q);
    await decided(q, { decision: 'accept' });
    const before = { balance: await balanceOf(c), ledger: await ledgerOf(c), events: await eventsOf(q) };
    await cancel.execute(cancelled(q));
    expect(await caseOf(q)).toMatchObject({ status: 'returning' });
    expect({ balance: await balanceOf(c), ledger: await ledgerOf(c), events: await eventsOf(q) }).toEqual(before);
    expect(await untilCase(q, 'returned')).toMatchObject({ dict_result: 'TOTALLY_ACCEPTED', returned_cents: 5_000 });

    const d = await credited(1_000);
    const r = report(d);
    await receive.execute(r);
    await decided(r, { decision: 'disagree' });
    await cancel.execute(cancelled(r));
    expect(await caseOf(r)).toMatchObject({ status: 'disagreed', dict_result: 'DISAGREED' });
    expect((await eventsOf(r)).map((m) => m.status)).toEqual(['open', 'disagreed']);
    expect(await balanceOf(d)).toEqual({ available: 1_000, blocked: 0 });
  });

  it('lists the cases newest first, by status and partner, page by page', async () => {
    const c = await credited(1_000);
    const first = report(c);
    const second = request(c, 100);
    await receive.execute(first);
    await receive.execute(second);
    const page = await list.execute({ partner_id: c.partnerId, limit: 1 });
    if (!page.ok) throw new Error(JSON.stringify(page.error));
    expect(page.data.med_cases.map((m) => m.case_id)).toEqual([second.case_id]);
    const next = await list.execute({ partner_id: c.partnerId, limit: 1, cursor: page.data.next_cursor ?? undefined });
    expect(next).toMatchObject({ ok: true, data: { med_cases: [{ case_id: first.case_id }], next_cursor: null } });
    expect(await list.execute({ partner_id: c.partnerId, status: 'agreed' })).toMatchObject({ ok: true, data: { med_cases: [] } });
    expect(await list.execute({ cursor: 'bm9wZQ' })).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'cursor' } });
  });
});
