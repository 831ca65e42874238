import { loadConfig } from '@partner/config';
import { CreditAccountCommand, MAX_CREDIT_MICROS, Topics, PartnerId } from '@partner/contracts';
import { newCpf, newUuid, selectCount, selectRow, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { AccountRepository } from './account.repository';
import { CreditAccountUseCase } from './credit-account.use-case';
import { GetBalanceUseCase } from './get-balance.use-case';
import { OpenUserAccountUseCase } from './open-user-account.use-case';

// Integration: the real withdrawals schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const db = new Database(loadConfig(WithdrawalsConfig), DB_SCHEMA);
const accounts = new AccountRepository(db);
/** Counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events. */
const relay = { wakes: 0, wake: () => void relay.wakes++ };
const unitOfWork = new UnitOfWork(db, relay);
const openAccount = new OpenUserAccountUseCase(accounts);
const credit = new CreditAccountUseCase(unitOfWork, accounts, new RefusedCommandRepository(db));
const getBalance = new GetBalanceUseCase(accounts);

async function newUser() {
  const partnerId = testPartnerId();
  const document = newCpf();
  const reply = await openAccount.execute({ partner_id: partnerId, document });
  if (!reply.ok || !reply.data.created) throw new Error('user not created');
  return { partnerId, document };
}

const creditOf = (partnerId: PartnerId, document: string, overrides: Partial<CreditAccountCommand> = {}): CreditAccountCommand => ({
  partner_id: partnerId,
  document,
  usdt_micros: 2_500_000,
  idempotency_key: `deposit-${newUuid()}`,
  reference: 'TED 2026-11-22 #4411',
  ...overrides,
});

/** Everything a credit writes for the partner, each row with the id of the transaction that wrote it (xmin). */
async function written(partnerId: string) {
  const query = async <R>(sql: string) => (await db.query(sql, [partnerId])).rows as R[];
  return {
    credits: await query<{ idempotency_key: string; amount_micros: string; reference: string; tx: string }>(
      'SELECT idempotency_key, amount_micros, reference, xmin::text AS tx FROM credits WHERE partner_id = $1 ORDER BY created_at',
    ),
    ledger: await query<{ reason: string; available_delta: string; held_delta: string; reference: string | null; tx: string }>(
      'SELECT reason, available_delta, held_delta, reference, xmin::text AS tx FROM ledger_entries WHERE partner_id = $1 ORDER BY id',
    ),
    outbox: await query<{ topic: string; key: string; payload: Record<string, unknown>; tx: string }>(
      "SELECT topic, key, payload, xmin::text AS tx FROM outbox_messages WHERE payload->>'partner_id' = $1::text ORDER BY id",
    ),
    accounts: await query<{ tx: string }>('SELECT xmin::text AS tx FROM accounts WHERE partner_id = $1'),
  };
}

/** The books balance: the account equals the sum of its ledger entries. */
async function expectLedgerMatches(partnerId: PartnerId, document: string) {
  const account = await accounts.find(partnerId, document);
  const sums = await selectRow<{ available: string | null; held: string }>(
    db,
    'SELECT sum(available_delta) AS available, coalesce(sum(held_delta), 0) AS held FROM ledger_entries WHERE partner_id = $1 AND document = $2',
    [partnerId, document],
  );
  expect(sums.available).toBe(String(account?.availableMicros));
  expect(sums.held).toBe(String(account?.heldMicros));
}

afterAll(() => db.close());

describe('upsert-user (PostgreSQL)', () => {
  it('opens the account once with a zero balance and no ledger entry, and answers its opening time every time', async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const before = Date.now();
    const first = await openAccount.execute(command);
    expect(first).toEqual({ ok: true, data: { created: true, created_at: expect.any(String) } });
    const createdAt = first.ok ? first.data.created_at : '';
    expect(new Date(createdAt).toISOString()).toBe(createdAt);
    expect(Date.parse(createdAt)).toBeGreaterThanOrEqual(before - 1);

    expect(await openAccount.execute(command)).toEqual({ ok: true, data: { created: false, created_at: createdAt } });
    expect(await accounts.find(command.partner_id, command.document)).toEqual({ availableMicros: 0n, heldMicros: 0n });
    expect(await selectCount(db, 'SELECT count(*) FROM ledger_entries WHERE partner_id = $1', [command.partner_id])).toBe(0);
  });

  it('creates exactly once under 10 concurrent upserts, all answering the same opening time', async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const replies = await Promise.all(Array.from({ length: 10 }, () => openAccount.execute({ ...command })));
    expect(replies.filter((r) => r.ok && r.data.created)).toHaveLength(1);
    expect(new Set(replies.map((r) => (r.ok ? r.data.created_at : r.error.code))).size).toBe(1);
    expect(await selectCount(db, 'SELECT count(*) FROM accounts WHERE partner_id = $1', [command.partner_id])).toBe(1);
  });

  it('keeps a credited balance when the user is upserted again', async () => {
    const { partnerId, document } = await newUser();
    await credit.execute(creditOf(partnerId, document));
    expect(await openAccount.execute({ partner_id: partnerId, document })).toMatchObject({ ok: true, data: { created: false } });
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 2_500_000n, heldMicros: 0n });
  });
});

describe('credit-account (PostgreSQL)', () => {
  it("writes the credit's audit row in the credit's own transaction: amount, operator keys, client address, balance after", async () => {
    const { partnerId, document } = await newUser();
    const command = creditOf(partnerId, document, {
      operators: 'alice (adm_1a2b); approved by bob (adm_3c4d)',
      client_address: '203.0.113.7',
    });
    expect(await credit.execute(command)).toMatchObject({ ok: true });
    const audit = await db.query<Record<string, string | null>>(
      `SELECT action, usdt_micros, idempotency_key, reference, operators, client_address, available_micros_after, xmin::text AS tx
       FROM audit_log WHERE partner_id = $1 AND document = $2`,
      [partnerId, document],
    );
    const [ledger] = (await written(partnerId)).ledger;
    expect(audit.rows).toEqual([
      {
        action: 'credit',
        usdt_micros: '2500000',
        idempotency_key: command.idempotency_key,
        reference: command.reference,
        operators: command.operators,
        client_address: '203.0.113.7',
        available_micros_after: '2500000',
        tx: ledger.tx,
      },
    ]);
    // A replay credits nothing and writes no second row.
    expect(await credit.execute(command)).toMatchObject({ ok: true, data: { replayed: true } });
    expect(await selectCount(db, 'SELECT count(*) FROM audit_log WHERE partner_id = $1', [partnerId])).toBe(1);
  });

  it('rolls the credit back when its audit row cannot be written: no balance, ledger, credit or event, and the key stays free', async () => {
    const { partnerId, document } = await newUser();
    const command = creditOf(partnerId, document, { operators: 'alice (adm_1a2b)', client_address: '203.0.113.7' });
    // The audit table refusing this partner's rows (a full disk, a broken constraint, a trigger gone wrong).
    const trigger = `audit_refuses_${partnerId.replace(/-/g, '_')}`;
    await db.query(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.partner_id = '${partnerId}' THEN RAISE EXCEPTION 'audit write failed'; END IF; RETURN NEW; END; $$`);
    await db.query(`CREATE TRIGGER ${trigger} BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
    try {
      await expect(credit.execute(command)).rejects.toThrow(/audit write failed/);
    } finally {
      await db.query(`DROP TRIGGER ${trigger} ON audit_log`);
      await db.query(`DROP FUNCTION ${trigger}()`);
    }
    expect(await written(partnerId)).toEqual({ credits: [], ledger: [], outbox: [], accounts: [{ tx: expect.any(String) }] });
    expect(await getBalance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_usdt_micros: 0, held_usdt_micros: 0 },
    });
    // Once the audit can be written, the same request credits (the failed attempt held nothing).
    expect(await credit.execute(command)).toEqual({
      ok: true,
      data: { available_usdt_micros: 2_500_000, held_usdt_micros: 0, replayed: false },
    });
    expect(await selectCount(db, 'SELECT count(*) FROM audit_log WHERE partner_id = $1', [partnerId])).toBe(1);
  });

  it('applies a credit once: the balance, one ledger entry with its reference and one event, all in one transaction', async () => {
    const { partnerId, document } = await newUser();
    const command = creditOf(partnerId, document);
    const wakes = relay.wakes;
    expect(await credit.execute(command)).toEqual({
      ok: true,
      data: { available_usdt_micros: 2_500_000, held_usdt_micros: 0, replayed: false },
    });
    expect(relay.wakes).toBe(wakes + 1);

    const rows = await written(partnerId);
    expect(rows.credits).toEqual([
      { idempotency_key: command.idempotency_key, amount_micros: '2500000', reference: command.reference, tx: expect.any(String) },
    ]);
    expect(rows.ledger).toEqual([
      { reason: 'credit', available_delta: '2500000', held_delta: '0', reference: command.reference, tx: expect.any(String) },
    ]);
    expect(rows.outbox).toEqual([
      {
        topic: Topics.AccountCredited,
        key: `account:${partnerId}:${document}`,
        payload: {
          partner_id: partnerId,
          document,
          usdt_micros: 2_500_000,
          idempotency_key: command.idempotency_key,
          reference: command.reference,
          available_usdt_micros: 2_500_000,
          credited_at: expect.any(String),
        },
        tx: expect.any(String),
      },
    ]);
    // One transaction wrote the credit, the balance, the ledger entry and the event.
    const tx = rows.credits[0].tx;
    expect([rows.ledger[0].tx, rows.outbox[0].tx, rows.accounts[0].tx]).toEqual([tx, tx, tx]);
    await expectLedgerMatches(partnerId, document);
  });

  it('answers a replay with replayed: true and the current balance, writing nothing more', async () => {
    const { partnerId, document } = await newUser();
    const command = creditOf(partnerId, document);
    await credit.execute(command);
    await credit.execute(creditOf(partnerId, document, { usdt_micros: 1_000_000 }));
    const before = await written(partnerId);
    const wakes = relay.wakes;

    expect(await credit.execute({ ...command })).toEqual({
      ok: true,
      data: { available_usdt_micros: 3_500_000, held_usdt_micros: 0, replayed: true },
    });
    expect(await written(partnerId)).toEqual(before);
    expect(relay.wakes).toBe(wakes);
  });

  it.each([
    ['amount', { usdt_micros: 2_500_001 }],
    ['reference', { reference: 'another deposit' }],
  ])('refuses the key reused with another %s and writes nothing', async (_field, change) => {
    const { partnerId, document } = await newUser();
    const command = creditOf(partnerId, document);
    await credit.execute(command);
    const before = await written(partnerId);

    expect(await credit.execute({ ...command, ...change })).toEqual({
      ok: false,
      error: { code: 'idempotency_key_reused', message: expect.any(String), field: 'idempotency_key' },
    });
    expect(await written(partnerId)).toEqual(before);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 2_500_000n, heldMicros: 0n });
  });

  it("refuses the key reused for another user and leaves both users' balances alone", async () => {
    const { partnerId, document } = await newUser();
    const other = newCpf();
    await openAccount.execute({ partner_id: partnerId, document: other });
    const command = creditOf(partnerId, document);
    await credit.execute(command);

    expect(await credit.execute({ ...command, document: other })).toMatchObject({ ok: false, error: { code: 'idempotency_key_reused' } });
    expect(await accounts.find(partnerId, other)).toEqual({ availableMicros: 0n, heldMicros: 0n });
    expect((await written(partnerId)).ledger).toHaveLength(1);
  });

  it('refuses an unknown user and writes nothing: the key stays free for when the user exists', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    const command = creditOf(partnerId, document);
    expect(await credit.execute(command)).toEqual({ ok: false, error: { code: 'user_not_found', message: expect.any(String) } });
    expect(await written(partnerId)).toEqual({ credits: [], ledger: [], outbox: [], accounts: [] });

    await openAccount.execute({ partner_id: partnerId, document });
    expect(await credit.execute(command)).toMatchObject({ ok: true, data: { available_usdt_micros: 2_500_000, replayed: false } });
  });

  it('refuses a copy of a credit refused for an unknown user again once the user exists: a credit answered 404 is never applied later', async () => {
    // A redelivery after a crash, or a retried send, hands the service the same command (same id) twice.
    const partnerId = testPartnerId();
    const document = newCpf();
    const command = creditOf(partnerId, document);
    const commandId = `test-${newUuid()}`;
    expect(await credit.execute(command, commandId)).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    await openAccount.execute({ partner_id: partnerId, document });
    expect(await credit.execute(command, commandId)).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await getBalance.execute({ partner_id: partnerId, document })).toMatchObject({ ok: true, data: { available_usdt_micros: 0 } });
    // The operator's own retry, with the same key, is a new command: it is applied, once.
    expect(await credit.execute(command, `test-${newUuid()}`)).toMatchObject({
      ok: true,
      data: { available_usdt_micros: 2_500_000, replayed: false },
    });
  });

  it("scopes users and keys by partner: another partner's user is not found, and the same key is another credit there", async () => {
    const a = await newUser();
    const b = await newUser();
    const command = creditOf(a.partnerId, a.document);
    await credit.execute(command);
    expect(await credit.execute({ ...command, partner_id: b.partnerId })).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await credit.execute({ ...command, partner_id: b.partnerId, document: b.document })).toMatchObject({
      ok: true,
      data: { replayed: false },
    });
  });

  it('credits exactly once when 20 identical credits race with one key', async () => {
    const { partnerId, document } = await newUser();
    const command = creditOf(partnerId, document);
    const replies = await Promise.all(Array.from({ length: 20 }, () => credit.execute({ ...command })));

    expect(replies.filter((r) => r.ok && !r.data.replayed)).toHaveLength(1);
    expect(replies.filter((r) => r.ok && r.data.replayed)).toHaveLength(19);
    for (const r of replies) expect(r).toMatchObject({ ok: true, data: { available_usdt_micros: 2_500_000 } });
    const rows = await written(partnerId);
    expect([rows.credits.length, rows.ledger.length, rows.outbox.length]).toEqual([1, 1, 1]);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 2_500_000n, heldMicros: 0n });
  });

  it('applies every one of 30 concurrent credits with different keys: the balance is their sum', async () => {
    const { partnerId, document } = await newUser();
    const amounts = Array.from({ length: 30 }, (_, i) => 1_000_000 + i);
    const replies = await Promise.all(amounts.map((usdt_micros) => credit.execute(creditOf(partnerId, document, { usdt_micros }))));

    const sum = amounts.reduce((a, b) => a + b, 0);
    expect(replies.every((r) => r.ok && !r.data.replayed)).toBe(true);
    // Each reply saw the balance right after its own credit: all different, the largest is the sum.
    const seen = replies.map((r) => (r.ok ? r.data.available_usdt_micros : 0));
    expect(new Set(seen).size).toBe(30);
    expect(Math.max(...seen)).toBe(sum);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: BigInt(sum), heldMicros: 0n });
    const rows = await written(partnerId);
    expect([rows.credits.length, rows.ledger.length, rows.outbox.length]).toEqual([30, 30, 30]);
    await expectLedgerMatches(partnerId, document);
  });

  it('refuses a credit that would take the balance past a safe integer (422 invalid_amount) and rolls it all back: no credit, no ledger entry, no event', async () => {
    const { partnerId, document } = await newUser();
    // Nine of the largest credits fit a safe integer; the tenth would not, and the CHECK on accounts refuses it.
    for (let i = 0; i < 9; i++) await credit.execute(creditOf(partnerId, document, { usdt_micros: MAX_CREDIT_MICROS }));
    const before = await written(partnerId);
    const command = creditOf(partnerId, document, { usdt_micros: MAX_CREDIT_MICROS });

    expect(await credit.execute(command)).toEqual({
      ok: false,
      error: { code: 'invalid_amount', message: expect.stringContaining('9007199254740991'), field: 'usdt_micros' },
    });
    expect(await written(partnerId)).toEqual(before);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 9n * BigInt(MAX_CREDIT_MICROS), heldMicros: 0n });
  });
});

describe('get-balance (PostgreSQL)', () => {
  it("answers the user's balance as committed, and user_not_found for an unknown user or another partner's", async () => {
    const { partnerId, document } = await newUser();
    expect(await getBalance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_usdt_micros: 0, held_usdt_micros: 0 },
    });
    await credit.execute(creditOf(partnerId, document, { usdt_micros: 7_000_000 }));
    expect(await getBalance.execute({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: { available_usdt_micros: 7_000_000, held_usdt_micros: 0 },
    });

    const notFound = { ok: false, error: { code: 'user_not_found', message: expect.any(String) } };
    expect(await getBalance.execute({ partner_id: partnerId, document: newCpf() })).toEqual(notFound);
    expect(await getBalance.execute({ partner_id: testPartnerId(), document })).toEqual(notFound);
  });
});
