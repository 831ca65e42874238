import { loadConfig } from '@partner/config';
import { PartnerId } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { newCpf, newUuid, outboxStatesOf, selectRow, selectRows, testPartnerId, withdrawalRequest } from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { LimitsRepository } from '../limits/limits.repository';
import { FailBeforeSigning } from '../payouts/fail-before-signing';
import { payoutKit } from '../payouts/payout-kit.spec-support';
import { PayoutMetrics } from '../payouts/payout-metrics';
import { PayoutRepository } from '../payouts/payout.repository';
import { ChangeDenyListUseCase } from '../screening/change-deny-list.use-case';
import { fixedScreening } from '../screening/screening.spec-support';
import { ScreeningRepository } from '../screening/screening.repository';
import { createWithdrawalUseCase } from '../withdrawals/create-withdrawal.spec-support';
import { DecideWithdrawalApprovalUseCase } from './decide-withdrawal-approval.use-case';
import { WithdrawalApprovalRepository } from './withdrawal-approval.repository';

// Integration: the withdrawals schema in PostgreSQL and the local chains (an approved withdrawal is paid on ETH).
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const accounts = new AccountRepository(db);
const limits = new LimitsRepository(db);
const approvals = new WithdrawalApprovalRepository(db);
const payouts = new PayoutRepository(db);
const fail = new FailBeforeSigning(payouts, accounts, new PayoutMetrics());
const decide = new DecideWithdrawalApprovalUseCase(unitOfWork, approvals, payouts, fail);
const denyList = new ChangeDenyListUseCase(unitOfWork, new ScreeningRepository(db), payouts, fail);
const create = createWithdrawalUseCase(db, unitOfWork, fixedScreening());
const kit = payoutKit(config, db);

afterAll(() => db.close());
beforeAll(() => kit.rounds.checkChains());

const USDT = 1_000_000;
const FUNDS = 100n * BigInt(USDT);
const THRESHOLD = 5 * USDT;
const by = 'ops (adm_test)';
const asked = () => new Date().toISOString();

/** A user of a partner whose approval threshold is 5 USDT, and a withdrawal of `usdtmicros` on ETH. */
async function withdrawal(usdtmicros: number) {
  const partnerId = testPartnerId();
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: FUNDS, reference: 'test funds' }, new Date()),
  );
  await limits.setPartner(
    partnerId,
    { perWithdrawal: null, daily: null, monthly: null, partnerDaily: null, approvalThreshold: BigInt(THRESHOLD) },
    by,
    new Date(),
  );
  const address = privateKeyToAccount(generatePrivateKey()).address;
  const reply = await create.execute({ partner_id: partnerId, ...withdrawalRequest(document, { usdtmicros, network: 'ETH', address }) });
  if (!reply.ok) throw new Error(`refused: ${reply.error.code}`);
  const [approval] = (await approvals.page('pending_approval', 1000)).filter((a) => a.withdrawal_id === reply.data.id);
  return { id: reply.data.id, partnerId, document, address, approval };
}
const state = async (id: number) =>
  selectRow<{ state: string; failure_reason: string | null; nonce: string | null }>(db, 'SELECT * FROM withdrawals WHERE id = $1', [id]);
const events = async (partnerId: PartnerId) =>
  outboxStatesOf(await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages ORDER BY id'), partnerId);
const ETH_LOW_FEE = 2n * BigInt(USDT);

describe('withdrawals above the approval threshold (PostgreSQL + the local chains)', () => {
  it('waits in pending_approval, held and reported, never signed; at the threshold it is created as usual', async () => {
    const w = await withdrawal(THRESHOLD + 1);
    expect(await state(w.id)).toMatchObject({ state: 'pending_approval', nonce: null });
    expect(await events(w.partnerId)).toEqual(['pending_approval']);
    expect(await accounts.find(w.partnerId, w.document)).toEqual({
      availableMicros: FUNDS - BigInt(THRESHOLD + 1) - ETH_LOW_FEE,
      heldMicros: BigInt(THRESHOLD + 1) + ETH_LOW_FEE,
    });
    expect(w.approval).toMatchObject({
      status: 'pending_approval',
      partner_id: w.partnerId,
      document: w.document,
      usdt_micros: THRESHOLD + 1,
    });
    for (let i = 0; i < 3; i++) await kit.rounds.runOnce();
    expect(await state(w.id)).toMatchObject({ state: 'pending_approval', nonce: null });
    const at = await withdrawal(THRESHOLD);
    expect(await state(at.id)).toMatchObject({ state: 'created' });
    expect(at.approval).toBeUndefined();
  });

  it('approved: created, then paid on chain as any other', async () => {
    const w = await withdrawal(6 * USDT);
    const approved = await decide.execute({ approval_id: w.approval.id, decision: 'approve', note: 'KYC checked', by, asked_at: asked() });
    expect(approved).toMatchObject({ ok: true, data: { status: 'approved', decided_by: by, note: 'KYC checked', withdrawal_id: w.id } });
    expect(await decide.execute({ approval_id: w.approval.id, decision: 'approve', by, asked_at: asked() })).toMatchObject({
      ok: true,
      data: { status: 'approved', note: 'KYC checked' },
    });
    expect(await decide.execute({ approval_id: w.approval.id, decision: 'reject', by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transition' },
    });
    await kit.until([w.id], ['settled']);
    expect(await events(w.partnerId)).toEqual(['pending_approval', 'created', 'sent', 'settled']);
  });

  it('rejected: failed rejected_by_operator, the hold released, never signed', async () => {
    const w = await withdrawal(7 * USDT);
    expect(await decide.execute({ approval_id: w.approval.id, decision: 'reject', note: 'unusual', by, asked_at: asked() })).toMatchObject({
      ok: true,
      data: { status: 'rejected' },
    });
    expect(await state(w.id)).toMatchObject({ state: 'failed', failure_reason: 'rejected_by_operator', nonce: null });
    expect(await accounts.find(w.partnerId, w.document)).toEqual({ availableMicros: FUNDS, heldMicros: 0n });
    expect(await events(w.partnerId)).toEqual(['pending_approval', 'failed']);
    expect(await decide.execute({ approval_id: newUuid(), decision: 'reject', by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('one whose destination is denied while it waits fails address_blocked; its approval no longer waits and cannot be decided', async () => {
    const w = await withdrawal(8 * USDT);
    expect(await denyList.add({ address: w.address, note: 'fraud', by, asked_at: asked() })).toMatchObject({
      ok: true,
      data: { failed_withdrawals: [w.id] },
    });
    expect(await state(w.id)).toMatchObject({ state: 'failed', failure_reason: 'address_blocked' });
    expect((await approvals.page('pending_approval', 1000)).map((a) => a.id)).not.toContain(w.approval.id);
    expect(await decide.execute({ approval_id: w.approval.id, decision: 'approve', by, asked_at: asked() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transition', message: `withdrawal ${w.id} no longer waits for approval (it failed meanwhile)` },
    });
  });
});
