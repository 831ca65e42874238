import { loadConfig } from '@partner/config';
import { CreateWithdrawalCommand, PartnerId } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { newCpf, newUuid, selectRow, testPartnerId, withdrawalRequest } from '@partner/testing';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { fixedScreening } from '../screening/screening.spec-support';
import { createWithdrawalUseCase } from '../withdrawals/create-withdrawal.spec-support';
import { GetLimitsUseCase } from './get-limits.use-case';
import { LimitsRepository } from './limits.repository';
import { SetLimitsUseCase } from './set-limits.use-case';

// Integration: the withdrawals schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const accounts = new AccountRepository(db);
const limits = new LimitsRepository(db);
const create = createWithdrawalUseCase(db, unitOfWork, fixedScreening());
const setLimits = new SetLimitsUseCase(limits);
const getLimits = new GetLimitsUseCase(limits, accounts);

afterAll(() => db.close());

const USDT = 1_000_000;
/** On ETH: the MATIC-only chain specs (the pool, the reconciliation) find no backlog of these to pay before their own. */
const ETH_LOW_FEE = 2_000_000;
const by = 'ops (adm_test)';

async function newUser(partnerId: PartnerId, micros = 100 * USDT): Promise<string> {
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: BigInt(micros), reference: 'test funds' }, new Date()),
  );
  return document;
}
const command = (partnerId: PartnerId, document: string, usdtmicros: number): CreateWithdrawalCommand => ({
  partner_id: partnerId,
  ...withdrawalRequest(document, { usdtmicros, network: 'ETH' }),
});
const set = (partner_id: PartnerId, limitsOf: Record<string, number | null>, document?: string) =>
  setLimits.execute({ partner_id, ...(document ? { document } : {}), ...limitsOf, by, asked_at: new Date().toISOString() });
const codes = (replies: Awaited<ReturnType<typeof create.execute>>[]) => replies.map((r) => (r.ok ? 'created' : r.error.code)).sort();
const heldOf = async (partnerId: PartnerId, document: string) => (await accounts.find(partnerId, document))?.heldMicros;

describe('withdrawal limits (PostgreSQL)', () => {
  it("32 parallel withdrawals never pass a user's daily limit together: exactly as many as fit, the rest limit_exceeded", async () => {
    const partnerId = testPartnerId();
    const document = await newUser(partnerId);
    expect(await set(partnerId, { daily_usdt_micros: 10 * USDT })).toMatchObject({
      ok: true,
      data: { daily_usdt_micros: 10 * USDT, updated_by: by },
    });
    const replies = await Promise.all(Array.from({ length: 32 }, () => create.execute(command(partnerId, document, USDT))));
    expect(codes(replies)).toEqual([...Array(10).fill('created'), ...Array(22).fill('limit_exceeded')].sort());
    expect(await heldOf(partnerId, document)).toBe(BigInt(10 * (USDT + ETH_LOW_FEE)));
    const refused = replies.find((r) => !r.ok);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'limit_exceeded',
        message: "1000000 micros is over the user's daily limit (any 24 hours) of 10000000 micros; 10000000 used, 0 left",
      },
    });
    // The ledger balances: every hold written with its line.
    const sums = await selectRow<{ held: string }>(db, 'SELECT sum(held_delta)::text AS held FROM ledger_entries WHERE partner_id = $1', [
      partnerId,
    ]);
    expect(sums.held).toBe(String(10 * (USDT + ETH_LOW_FEE)));
  });

  it("nor a partner's daily total across its users (4 users, 8 requests each at once)", async () => {
    const partnerId = testPartnerId();
    const users = await Promise.all([1, 2, 3, 4].map(() => newUser(partnerId)));
    await set(partnerId, { partner_daily_usdt_micros: 12 * USDT });
    const replies = await Promise.all(users.flatMap((d) => Array.from({ length: 8 }, () => create.execute(command(partnerId, d, USDT)))));
    expect(codes(replies).filter((c) => c === 'created')).toHaveLength(12);
    expect(codes(replies).filter((c) => c === 'limit_exceeded')).toHaveLength(20);
  });

  it("applies the limit per withdrawal and over 30 days; a user's own limits take the partner's place; failed ones do not count", async () => {
    const partnerId = testPartnerId();
    const document = await newUser(partnerId);
    await set(partnerId, { per_withdrawal_usdt_micros: 5 * USDT, monthly_usdt_micros: 7 * USDT });
    expect(await create.execute(command(partnerId, document, 6 * USDT))).toMatchObject({
      ok: false,
      error: { code: 'limit_exceeded', message: "6000000 micros is over the user's limit per withdrawal of 5000000 micros" },
    });
    const five = await create.execute(command(partnerId, document, 5 * USDT));
    expect(five.ok).toBe(true);
    expect(await create.execute(command(partnerId, document, 3 * USDT))).toMatchObject({
      error: {
        code: 'limit_exceeded',
        message: expect.stringContaining("the user's monthly limit (any 30 days) of 7000000 micros; 5000000 used, 2000000 left"),
      },
    });
    // A failed withdrawal gives its amount back to the windows.
    if (!five.ok) throw new Error('refused');
    await db.query(`UPDATE withdrawals SET state = 'failed' WHERE id = $1`, [five.data.id]);
    expect((await create.execute(command(partnerId, document, 5 * USDT))).ok).toBe(true);
    // The user's own monthly limit replaces the partner's; the partner's per withdrawal still applies.
    expect(await set(partnerId, { monthly_usdt_micros: 20 * USDT }, document)).toMatchObject({
      ok: true,
      data: { document, monthly_usdt_micros: 20 * USDT },
    });
    expect((await create.execute(command(partnerId, document, 5 * USDT))).ok).toBe(true);
    expect(await getLimits.user({ partner_id: partnerId, document })).toEqual({
      ok: true,
      data: {
        document,
        per_withdrawal_usdt_micros: 5 * USDT,
        daily: { limit_usdt_micros: null, used_usdt_micros: 10 * USDT, remaining_usdt_micros: null },
        monthly: { limit_usdt_micros: 20 * USDT, used_usdt_micros: 10 * USDT, remaining_usdt_micros: 10 * USDT },
        partner_daily: { limit_usdt_micros: null, used_usdt_micros: 10 * USDT, remaining_usdt_micros: null },
      },
    });
  });

  it('a retry of an accepted withdrawal is replayed once the limit is reached, not refused', async () => {
    const partnerId = testPartnerId();
    const document = await newUser(partnerId);
    await set(partnerId, { daily_usdt_micros: 2 * USDT });
    const first = command(partnerId, document, 2 * USDT);
    const accepted = await create.execute(first);
    if (!accepted.ok) throw new Error('refused');
    expect(await create.execute(first)).toEqual({ ok: true, data: { id: accepted.data.id, created: false } });
  });

  it("refuses a user's own limits for a user the partner does not have", async () => {
    expect(await set(testPartnerId(), { daily_usdt_micros: USDT }, newCpf())).toMatchObject({
      ok: false,
      error: { code: 'user_not_found' },
    });
    expect(await getLimits.user({ partner_id: testPartnerId(), document: newCpf() })).toMatchObject({
      ok: false,
      error: { code: 'user_not_found' },
    });
  });
});
