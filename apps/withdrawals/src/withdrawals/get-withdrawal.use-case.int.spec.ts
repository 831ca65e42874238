import { loadConfig } from '@partner/config';
import { FAILING_ADDRESS, newCpf, newUuid, withdrawalRequest, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { AccountRepository } from '../accounts/account.repository';
import { payoutKit } from '../payouts/payout-kit.spec-support';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { GetWithdrawalUseCase } from './get-withdrawal.use-case';
import { WaitingReasons } from './waiting-reasons.service';
import { WithdrawalRepository } from './withdrawal.repository';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { listsScreening } from '../screening/screening.spec-support';
import { createWithdrawalUseCase } from './create-withdrawal.spec-support';

// Integration: the real withdrawals schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const accounts = new AccountRepository(db);
const withdrawals = new WithdrawalRepository(db);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const create = createWithdrawalUseCase(db, unitOfWork, listsScreening(config, db));
/** The payouts on the local chains (npm test starts them). */
const payouts = payoutKit(config, db);
/** The same with finality 10,000 blocks away: it broadcasts and stops there, so `sent` can be read. */
const sendOnly = payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, CHAIN_FINALITY_ETH: '10000' }), db);
const get = new GetWithdrawalUseCase(withdrawals, new WaitingReasons(new HotWalletRepository(db), payouts.pool));

/** A funded user of a new partner and one withdrawal of 2.5 USDT on Ethereum (MEDIUM fee: 3.5 USDT). */
async function newWithdrawal(address?: string) {
  const partnerId = testPartnerId();
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: 100_000_000n, reference: 'test funds' }, new Date()),
  );
  const request = withdrawalRequest(document, {
    usdtmicros: 2_500_000,
    network: 'ETH' as const,
    fee_choice: 'MEDIUM' as const,
    ...(address ? { address } : {}),
  });
  const reply = await create.execute({ partner_id: partnerId, ...request });
  if (!reply.ok) throw new Error(`withdrawal refused: ${reply.error.code}`);
  return { partnerId, request, id: reply.data.id };
}

afterAll(() => db.close());

describe('GetWithdrawalUseCase (PostgreSQL)', () => {
  it("answers the partner's withdrawal with every field, micros as integers and times in Unix seconds", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { partnerId, request, id } = await newWithdrawal();
    const reply = await get.execute({ partner_id: partnerId, id });
    expect(reply).toEqual({
      ok: true,
      data: {
        id,
        document: request.document,
        address: request.address,
        network: 'ETH',
        fee_choice: 'MEDIUM',
        usdtmicros: 2_500_000,
        fee_usdtmicros: 3_500_000,
        state: 'created',
        tx_hash: null,
        block_number: null,
        failure_reason: null,
        beneficiary: null,
        report_id: null,
        waiting_reason: null,
        created_at: expect.any(Number),
        last_updated_at: expect.any(Number),
      },
    });
    const data = reply.ok ? reply.data : undefined;
    expect(Number.isInteger(data?.created_at)).toBe(true);
    expect(data?.created_at).toBeGreaterThanOrEqual(before);
    expect(data?.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(data?.last_updated_at).toBe(data?.created_at);
    expect(Object.keys(data ?? {})).not.toContain('idempotency_key');
  });

  it('follows the withdrawal through the chain: sent with its hash, then settled; failed with its reason', async () => {
    const settled = await newWithdrawal();
    const failed = await newWithdrawal(FAILING_ADDRESS);
    await sendOnly.until([settled.id], ['sent']);
    const sent = await get.execute({ partner_id: settled.partnerId, id: settled.id });
    expect(sent).toMatchObject({
      ok: true,
      data: { state: 'sent', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), failure_reason: null },
    });
    await payouts.until([settled.id, failed.id], ['settled', 'failed']);
    const txHash = sent.ok ? sent.data.tx_hash : undefined;
    expect(await get.execute({ partner_id: settled.partnerId, id: settled.id })).toMatchObject({
      ok: true,
      data: { state: 'settled', tx_hash: txHash },
    });
    expect(await get.execute({ partner_id: failed.partnerId, id: failed.id })).toMatchObject({
      ok: true,
      // Refused by the pre-flight simulation: never signed, so no hash.
      data: { state: 'failed', tx_hash: null, failure_reason: 'destination_refused' },
    });
  });

  it("is not_found for an unknown id, another partner's withdrawal and an id past the column's range", async () => {
    const { partnerId, id } = await newWithdrawal();
    const notFound = { ok: false, error: { code: 'not_found', message: expect.any(String) } };
    expect(await get.execute({ partner_id: testPartnerId(), id })).toEqual(notFound);
    expect(await get.execute({ partner_id: partnerId, id: id + 1_000_000 })).toEqual(notFound);
    expect(await get.execute({ partner_id: partnerId, id: Number.MAX_SAFE_INTEGER })).toEqual(notFound);
  });
});
