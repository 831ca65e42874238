import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateWithdrawalCommand, PartnerId } from '@partner/contracts';
import { loadConfig } from '@partner/config';
import {
  FAILING_ADDRESS,
  newCpf,
  newUuid,
  outboxStatesOf,
  pollUntil,
  withdrawalRequest,
  selectCount,
  selectRow,
  selectRows,
  testPartnerId,
} from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { fingerprintOf } from './create-withdrawal.use-case';
import { stateChanged } from './withdrawal-event';
import { hold } from './hold-rule';
import { WithdrawalRepository } from './withdrawal.repository';
import { listsScreening } from '../screening/screening.spec-support';
import { createWithdrawalUseCase } from './create-withdrawal.spec-support';

// Integration: the real withdrawals schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const accounts = new AccountRepository(db);
const withdrawals = new WithdrawalRepository(db);
/** Counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events. */
const relay = { wakes: 0, wake: () => void relay.wakes++ };
const unitOfWork = new UnitOfWork(db, relay);
const create = createWithdrawalUseCase(db, unitOfWork, listsScreening(config, db));

const MATIC_LOW_FEE = 20_000;

async function newAccount(micros: number) {
  const partnerId = testPartnerId();
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: BigInt(micros), reference: 'test funds' }, new Date()),
  );
  return { partnerId, document };
}

const command = (partnerId: PartnerId, document: string, overrides: Partial<CreateWithdrawalCommand> = {}): CreateWithdrawalCommand => ({
  partner_id: partnerId,
  ...withdrawalRequest(document, overrides),
});

const outboxStates = async (partnerId: string) =>
  outboxStatesOf(await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages ORDER BY id'), partnerId);

const withdrawalCount = (partnerId: string) => selectCount(db, 'SELECT count(*) FROM withdrawals WHERE partner_id = $1', [partnerId]);
const withdrawalRow = (id: number) =>
  selectRow<{ address: string; fingerprint: string }>(db, 'SELECT * FROM withdrawals WHERE id = $1', [id]);

/** The books balance: every account equals the sum of its ledger entries. */
async function expectLedgerMatches(partnerId: PartnerId, document: string) {
  const account = await accounts.find(partnerId, document);
  const sums = await selectRow<{ available: string | null; held: string | null }>(
    db,
    'SELECT sum(available_delta) AS available, sum(held_delta) AS held FROM ledger_entries WHERE partner_id = $1 AND document = $2',
    [partnerId, document],
  );
  expect(sums.available).toBe(String(account?.availableMicros));
  expect(sums.held).toBe(String(account?.heldMicros));
}

/** The migration.sql of the withdrawals migration with that name (its folder is prefixed with a timestamp). */
function migrationFile(name: string): string {
  const folder = join(__dirname, '../../../../prisma/withdrawals/migrations');
  const [match] = readdirSync(folder).filter((entry) => entry.endsWith(`_${name}`));
  if (!match) throw new Error(`no migration ${name} in ${folder}`);
  return join(folder, match, 'migration.sql');
}

afterAll(() => db.close());

describe('CreateWithdrawalUseCase (PostgreSQL)', () => {
  it('creates the withdrawal, holds amount plus fee and writes the created event in one go', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const reply = await create.execute(command(partnerId, document));
    expect(reply).toEqual({ ok: true, data: { id: expect.any(Number), created: true } });
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 5_000_000n - 1_020_000n, heldMicros: 1_020_000n });
    expect(await outboxStates(partnerId)).toEqual(['created']);
    await expectLedgerMatches(partnerId, document);
  });

  it('writes the created event exactly as the TypeScript builder makes it, the new id set by the statement', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const reply = await create.execute(command(partnerId, document));
    const id = reply.ok ? reply.data.id : -1;
    const [row] = await selectRows<{ topic: string; key: string; payload: unknown }>(
      db,
      "SELECT topic, key, payload FROM outbox_messages WHERE payload->>'partner_id' = $1 ORDER BY id",
      [partnerId],
    );
    const stored = await withdrawals.findById(partnerId, id);
    if (!stored) throw new Error(`withdrawal ${id} not found`);
    const expected = stateChanged(stored);
    const payload = row.payload as { event_id: string };
    expect([row.topic, row.key]).toEqual([expected.topic, expected.key]);
    expect(payload).toEqual({ ...expected.payload, event_id: payload.event_id });
    expect(payload.event_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replays a retry after the first request spent the balance, instead of refusing it', async () => {
    const { partnerId, document } = await newAccount(1_020_000);
    const first = command(partnerId, document);
    const created = await create.execute(first);
    const id = created.ok ? created.data.id : -1;
    expect(await create.execute({ ...first })).toEqual({ ok: true, data: { id, created: false } });
    expect(await create.execute({ ...first, usdtmicros: 2_000_000 })).toMatchObject({
      ok: false,
      error: { code: 'idempotency_key_reused' },
    });
    // A key is never bound by a refusal: a new key on the spent balance is refused.
    expect(await create.execute({ ...first, idempotency_key: newUuid() })).toMatchObject({
      ok: false,
      error: { code: 'insufficient_funds' },
    });
    expect(await withdrawalCount(partnerId)).toBe(1);
  });

  it('a duplicate arriving while its withdrawal is in a chain move waits for the move, holding no lock the move needs', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const first = command(partnerId, document);
    const created = await create.execute(first);
    const id = created.ok ? created.data.id : -1;
    const move = await db.connect();
    try {
      // A payout's move (TrackPayoutsUseCase): the withdrawal's row first, then its account.
      await move.query('BEGIN');
      await move.query('UPDATE withdrawals SET updated_at = now() WHERE id = $1', [id]);
      const {
        rows: [{ pid: movePid }],
      } = await move.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const retry = create.execute({ ...first });
      await pollUntil(
        'the retry to wait on the moving withdrawal',
        // Only backends blocked by this move: other suites running beside this one never count.
        async () =>
          (await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [movePid])).rows[0]
            .n,
        (n) => n === 1,
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      // Had the retry locked the account before waiting on the key, this would deadlock (one side aborted).
      await move.query('UPDATE accounts SET updated_at = now() WHERE partner_id = $1 AND document = $2', [partnerId, document]);
      await move.query('COMMIT');
      expect(await retry).toEqual({ ok: true, data: { id, created: false } });
    } finally {
      move.release();
    }
  });

  it('wakes the outbox relay once per committed withdrawal, never for a refused one', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const before = relay.wakes;
    await create.execute(command(partnerId, document));
    expect(relay.wakes).toBe(before + 1);
    await create.execute(command(partnerId, newCpf()));
    await create.execute(command(partnerId, document, { usdtmicros: 10_000_000 }));
    expect(relay.wakes).toBe(before + 1);
  });

  it('applies the hold rule of hold-rule.ts exactly: the statement and the TypeScript agree at the boundary', async () => {
    const amount = 1_000_000;
    for (const available of [amount + MATIC_LOW_FEE - 1, amount + MATIC_LOW_FEE, amount + MATIC_LOW_FEE + 1]) {
      const { partnerId, document } = await newAccount(available);
      const expected = hold({ availableMicros: BigInt(available), heldMicros: 0n }, BigInt(amount), BigInt(MATIC_LOW_FEE));
      const reply = await create.execute(command(partnerId, document, { usdtmicros: amount, network: 'MATIC', fee_choice: 'LOW' }));
      expect(reply.ok).toBe(typeof expected === 'object');
      expect(await accounts.find(partnerId, document)).toEqual(
        typeof expected === 'object' ? expected.held : { availableMicros: BigInt(available), heldMicros: 0n },
      );
    }
  });

  it('refuses unknown users and short balances without writing anything', async () => {
    const { partnerId, document } = await newAccount(1_000_000);
    expect(await create.execute(command(partnerId, newCpf()))).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await create.execute(command(partnerId, document))).toMatchObject({ ok: false, error: { code: 'insufficient_funds' } });
    expect(await withdrawalCount(partnerId)).toBe(0);
    expect(await outboxStates(partnerId)).toEqual([]);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 1_000_000n, heldMicros: 0n });
  });

  it('refuses a copy of a refused command again, even once the balance covers it; a new request with the same key is attempted', async () => {
    // A redelivery after a crash, or a retried send, hands the service the same command (same id) twice.
    const { partnerId, document } = await newAccount(1_000_000);
    const refused = command(partnerId, document);
    const commandId = `test-${newUuid()}`;
    expect(await create.execute(refused, commandId)).toMatchObject({ ok: false, error: { code: 'insufficient_funds' } });
    await unitOfWork.run((tx) =>
      accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: 5_000_000n, reference: 'top-up' }, new Date()),
    );
    // The copy: its caller was told "refused", so it is refused again and nothing moves.
    expect(await create.execute(refused, commandId)).toMatchObject({
      ok: false,
      error: { code: 'insufficient_funds', message: expect.stringContaining('balance does not cover') },
    });
    expect(await withdrawalCount(partnerId)).toBe(0);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 6_000_000n, heldMicros: 0n });
    // The partner's own retry after the top-up is a new command: the key was left free by the refusal.
    expect(await create.execute(refused, `test-${newUuid()}`)).toEqual({ ok: true, data: { id: expect.any(Number), created: true } });
    // Another partner cannot read the refusal kept under this command id.
    const other = await newAccount(5_000_000);
    expect(await create.execute(command(other.partnerId, other.document), commandId)).toEqual({
      ok: true,
      data: { id: expect.any(Number), created: true },
    });
    await expectLedgerMatches(partnerId, document);
  });

  it('scopes users by partner: another partner cannot spend the balance', async () => {
    const { document } = await newAccount(5_000_000);
    expect(await create.execute(command(testPartnerId(), document))).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
  });

  it('replays a key with the same request and refuses it with another', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const first = command(partnerId, document);
    const created = await create.execute(first);
    expect(await create.execute({ ...first })).toEqual({
      ok: true,
      data: { id: (created as { data: { id: number } }).data.id, created: false },
    });
    expect(await create.execute({ ...first, usdtmicros: 2_000_000 })).toMatchObject({
      ok: false,
      error: { code: 'idempotency_key_reused' },
    });
    expect(await withdrawalCount(partnerId)).toBe(1);
  });

  it('turns 50 concurrent duplicates into exactly one withdrawal, even when the balance covers only one', async () => {
    const { partnerId, document } = await newAccount(1_020_000);
    const same = command(partnerId, document);
    const replies = await Promise.all(Array.from({ length: 50 }, () => create.execute({ ...same })));
    const ids = new Set(replies.map((r) => (r.ok ? r.data.id : r.error.code)));
    expect(ids.size).toBe(1);
    expect(replies.filter((r) => r.ok && r.data.created)).toHaveLength(1);
    expect(await withdrawalCount(partnerId)).toBe(1);
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 0n, heldMicros: 1_020_000n });
  });

  it('never overdraws: of 40 concurrent withdrawals against a balance for 10, exactly 10 pass', async () => {
    const each = 1_000_000 + MATIC_LOW_FEE;
    const { partnerId, document } = await newAccount(10 * each + 999);
    const replies = await Promise.all(Array.from({ length: 40 }, () => create.execute(command(partnerId, document))));
    expect(replies.filter((r) => r.ok)).toHaveLength(10);
    expect(replies.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(Array(30).fill('insufficient_funds'));
    expect(await accounts.find(partnerId, document)).toEqual({ availableMicros: 999n, heldMicros: BigInt(10 * each) });
    await expectLedgerMatches(partnerId, document);
  });

  it('fingerprints every field but the key, the address whatever its letter case', () => {
    const a = command(testPartnerId(), newCpf());
    expect(fingerprintOf({ ...a, idempotency_key: newUuid() })).toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, network: 'ETH' })).not.toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, address: a.address.toLowerCase() })).toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, address: `0x${a.address.slice(2).toUpperCase()}` })).toBe(fingerprintOf(a));
    expect(fingerprintOf({ ...a, address: FAILING_ADDRESS })).not.toBe(fingerprintOf(a));
  });

  it('replays a retry that spells the address in another letter case: the same destination, the same withdrawal', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const first = command(partnerId, document);
    const created = await create.execute(first);
    const id = created.ok ? created.data.id : -1;

    expect(await create.execute({ ...first, address: first.address.toLowerCase() })).toEqual({ ok: true, data: { id, created: false } });
    expect(await create.execute({ ...first, address: `0x${first.address.slice(2).toUpperCase()}` })).toEqual({
      ok: true,
      data: { id, created: false },
    });
    expect(await create.execute({ ...first, address: FAILING_ADDRESS })).toMatchObject({
      ok: false,
      error: { code: 'idempotency_key_reused' },
    });
    expect(await withdrawalCount(partnerId)).toBe(1);
    // The address is kept as it was first given.
    expect((await withdrawalRow(id)).address).toBe(first.address);
  });

  it('migration withdrawal_fingerprint_lowercase_address gives rows fingerprinted from the address as given the fingerprint of today', async () => {
    const { partnerId, document } = await newAccount(5_000_000);
    const first = command(partnerId, document);
    const created = await create.execute(first);
    const id = created.ok ? created.data.id : -1;
    // The row as the rule before wrote it: the mixed-case address hashed as given.
    const before = createHash('sha256')
      .update(JSON.stringify([document, first.address, first.usdtmicros, first.fee_choice, first.network]))
      .digest('hex');
    expect((await db.query('UPDATE withdrawals SET fingerprint = $2 WHERE id = $1', [id, before])).rowCount).toBe(1);

    await db.query(readFileSync(migrationFile('withdrawal_fingerprint_lowercase_address'), 'utf8'));

    expect((await withdrawalRow(id)).fingerprint).toBe(fingerprintOf(first));
    expect(await create.execute({ ...first })).toEqual({ ok: true, data: { id, created: false } });
  });
});
