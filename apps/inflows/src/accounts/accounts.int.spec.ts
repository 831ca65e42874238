import { randomUUID } from 'node:crypto';
import { loadConfig } from '@partner/config';
import { newCpf, selectCount, selectRow, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { InflowsConfig } from '../config/inflows.config';
import { AccountRepository } from './account.repository';
import { GetBrlBalanceUseCase, GetBrlLedgerUseCase } from './brl-balance.use-cases';
import { OpenAccountUseCase } from './open-account.use-case';
import { newEndToEndId } from '../spi-simulator/end-to-end-id';

// Integration: users and their payment accounts in the real inflows schema. Each test uses a partner of its own.
const config = loadConfig(InflowsConfig, { ...process.env, OPERATOR_ISPB: '12345678', ACCOUNT_BRANCH: '0042' });
const db = new Database(config, DB_SCHEMA);
const accounts = new AccountRepository(db);
const open = new OpenAccountUseCase(config, new UnitOfWork(db, { wake: () => undefined }), accounts);
const balance = new GetBrlBalanceUseCase(accounts);
const ledger = new GetBrlLedgerUseCase(accounts);

afterAll(() => db.close());

/** The modulo-11 check digit of an account number's base (weights 2-9 from the right; remainders 0 and 1 give 0). */
function checkDigit(base: string): number {
  const sum = [...base].reverse().reduce((acc, d, i) => acc + Number(d) * (2 + (i % 8)), 0);
  return ((11 - (sum % 11)) % 11) % 10;
}

async function opened(partnerId = testPartnerId(), document = newCpf(), name?: string) {
  const reply = await open.execute({ partner_id: partnerId, document, ...(name !== undefined && { name }) });
  if (!reply.ok) throw new Error(JSON.stringify(reply));
  return { partnerId, document, ...reply.data };
}

describe('OpenAccountUseCase (PostgreSQL)', () => {
  it("opens a payment account at the operator's ISPB and ACCOUNT_BRANCH the first time, with a check-digit number; the same after", async () => {
    const first = await opened();
    expect(first).toMatchObject({ created: true, account: { ispb: '12345678', branch: '0042', type: 'TRAN' } });
    expect(first.account?.number).toMatch(/^[1-9]\d{8}$/);
    const number = first.account?.number ?? '';
    expect(Number(number.slice(-1))).toBe(checkDigit(number.slice(0, -1)));

    const again = await opened(first.partnerId, first.document);
    expect(again).toEqual({ ...first, created: false });
  });

  it('gives every user a number of their own, also under concurrent registrations of one user', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    const replies = await Promise.all(Array.from({ length: 6 }, () => opened(partnerId, document)));
    expect(replies.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(replies.map((r) => r.account?.number)).size).toBe(1);
    expect(await selectCount(db, 'SELECT count(*) FROM accounts WHERE partner_id = $1 AND document = $2', [partnerId, document])).toBe(1);

    const others = await Promise.all(Array.from({ length: 5 }, () => opened(partnerId)));
    expect(new Set([...others, replies[0]].map((r) => r.account?.number)).size).toBe(6);
  });

  it("stores the holder's name when given: a later one replaces it, a registration without one keeps it", async () => {
    const { partnerId, document } = await opened();
    const nameOf = async () =>
      (
        await selectRow<{ name: string | null }>(db, 'SELECT name FROM users WHERE partner_id = $1 AND document = $2', [
          partnerId,
          document,
        ])
      ).name;
    expect(await nameOf()).toBeNull();
    await opened(partnerId, document, 'Maria Souza');
    expect(await nameOf()).toBe('Maria Souza');
    await opened(partnerId, document);
    expect(await nameOf()).toBe('Maria Souza');
    await opened(partnerId, document, 'Maria Souza Lima');
    expect(await nameOf()).toBe('Maria Souza Lima');
  });

  it("answers the BRL balance and ledger of the partner's user only: another partner's is user_not_found", async () => {
    const { partnerId, document } = await opened();
    expect(await balance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_brl_cents: 0, blocked_brl_cents: 0 },
    });
    expect(await ledger.execute({ partner_id: partnerId, document })).toEqual({ ok: true, data: { entries: [], next_cursor: null } });
    expect(await balance.execute({ partner_id: testPartnerId(), document })).toMatchObject({
      ok: false,
      error: { code: 'user_not_found' },
    });
    expect(await ledger.execute({ partner_id: testPartnerId(), document })).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await ledger.execute({ partner_id: partnerId, document, cursor: 'bm9wZQ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'cursor' },
    });
  });

  it('pages the ledger newest first, with each entry once', async () => {
    const { partnerId, document } = await opened();
    const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
    for (const cents of [100n, 200n, 300n])
      await unitOfWork.run((tx) =>
        accounts.credit(tx, partnerId, document, { endToEndId: newEndToEndId('60701190', new Date()), amountCents: cents, at: new Date() }),
      );
    const first = await ledger.execute({ partner_id: partnerId, document, limit: 2 });
    if (!first.ok) throw new Error(JSON.stringify(first));
    expect(first.data.entries.map((e) => [e.available_delta_cents, e.available_after_cents, e.currency, e.type])).toEqual([
      [300, 600, 'BRL', 'pix_in_credit'],
      [200, 300, 'BRL', 'pix_in_credit'],
    ]);
    const second = await ledger.execute({ partner_id: partnerId, document, limit: 2, cursor: first.data.next_cursor ?? undefined });
    expect(second).toMatchObject({ ok: true, data: { entries: [{ available_after_cents: 100 }], next_cursor: null } });
    expect(await balance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_brl_cents: 600, blocked_brl_cents: 0 },
    });
  });
});

describe('AccountRepository, moving the balance (PostgreSQL)', () => {
  const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  const e2e = () => newEndToEndId('60701190', new Date());

  it("throws, nothing moved, when a move would take either balance below zero (the accounts' CHECKs)", async () => {
    const { partnerId, document } = await opened();
    await unitOfWork.run((tx) => accounts.credit(tx, partnerId, document, { endToEndId: e2e(), amountCents: 500n, at: new Date() }));
    const refund = { endToEndId: e2e(), refundId: 1n, amountCents: 501n, at: new Date() };
    await expect(unitOfWork.run((tx) => accounts.debitRefund(tx, partnerId, document, refund))).rejects.toThrow(
      'pix_in_refund of inflow ' + refund.endToEndId + " would take the user's available balance below zero: nothing moved",
    );
    const release = { endToEndId: e2e(), caseId: randomUUID(), amountCents: 1n, at: new Date() };
    await expect(unitOfWork.run((tx) => accounts.medRelease(tx, partnerId, document, release))).rejects.toThrow(
      'med_release of inflow ' + release.endToEndId + " would take the user's blocked balance below zero: nothing moved",
    );
    expect(await balance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_brl_cents: 500, blocked_brl_cents: 0 },
    });
    expect(await selectCount(db, 'SELECT count(*) FROM brl_ledger_entries WHERE partner_id = $1', [partnerId])).toBe(1);
  });

  it("a MED devolução's cents leave the blocked balance once, and come back once: a second line for it throws", async () => {
    const { partnerId, document } = await opened();
    const endToEndId = e2e();
    const caseId = randomUUID();
    await unitOfWork.run(async (tx) => {
      await accounts.credit(tx, partnerId, document, { endToEndId, amountCents: 900n, at: new Date() });
      await accounts.medBlock(tx, partnerId, document, { endToEndId, caseId, amountCents: 900n, at: new Date() });
    });
    const returned = { endToEndId, caseId, refundId: 7n, amountCents: 300n, at: new Date() };
    await unitOfWork.run((tx) => accounts.medReturn(tx, partnerId, document, returned));
    await expect(unitOfWork.run((tx) => accounts.medReturn(tx, partnerId, document, returned))).rejects.toThrow(
      'brl_ledger_entries_med_return_once',
    );
    await unitOfWork.run((tx) => accounts.medReturnReversal(tx, partnerId, document, returned));
    await expect(unitOfWork.run((tx) => accounts.medReturnReversal(tx, partnerId, document, returned))).rejects.toThrow(
      'brl_ledger_entries_med_return_once',
    );
    expect(await balance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_brl_cents: 0, blocked_brl_cents: 900 },
    });
  });

  it('answers false, nothing written, when the user has no account', async () => {
    const refund = { endToEndId: e2e(), refundId: 1n, amountCents: 1n, at: new Date() };
    expect(await unitOfWork.run((tx) => accounts.debitRefund(tx, testPartnerId(), newCpf(), refund))).toBe(false);
  });
});
