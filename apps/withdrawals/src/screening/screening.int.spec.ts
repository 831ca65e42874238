import { loadConfig } from '@partner/config';
import { CreateWithdrawalCommand, PartnerId } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import {
  newCpf,
  newUuid,
  outboxStatesOf,
  selectCount,
  selectRow,
  selectRows,
  testPartnerId,
  tokenAdmin,
  withdrawalRequest,
} from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { FailBeforeSigning } from '../payouts/fail-before-signing';
import { PayoutMetrics } from '../payouts/payout-metrics';
import { networkSettings } from '../hot-wallets/payout-settings';
import { PayoutRepository } from '../payouts/payout.repository';
import { railsFor } from '../hot-wallets/hot-wallets.module';
import { ChangeDenyListUseCase } from './change-deny-list.use-case';
import { GetScreeningStatusUseCase } from './get-screening-status.use-case';
import { ListsScreening } from './lists-screening';
import { OFAC_SDN_COPY } from './ofac-sdn-copy';
import { ReplaceSdnListUseCase } from './replace-sdn-list.use-case';
import { ScreeningRepository } from './screening.repository';
import { createWithdrawalUseCase } from '../withdrawals/create-withdrawal.spec-support';

// Integration: the withdrawals schema in PostgreSQL and the local chains npm test starts (the token's blacklist
// is read off the node, and written as its owner). Each test uses a partner of its own and fresh addresses.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const accounts = new AccountRepository(db);
const payouts = new PayoutRepository(db);
const lists = new ScreeningRepository(db);
const rails = railsFor(config);
const screening = new ListsScreening(lists, rails);
const fail = new FailBeforeSigning(payouts, accounts, new PayoutMetrics());
const status = new GetScreeningStatusUseCase(lists, screening, rails);
const sdn = new ReplaceSdnListUseCase(unitOfWork, lists, payouts, fail, status);
const denyList = new ChangeDenyListUseCase(unitOfWork, lists, payouts, fail);
const create = createWithdrawalUseCase(db, unitOfWork, screening);
const matic = networkSettings(config).MATIC;

afterAll(() => db.close());

const FUNDS = 10_000_000n;
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const by = 'ops (adm_test)';
const asked = () => new Date().toISOString();

async function newAccount() {
  const partnerId = testPartnerId();
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: FUNDS, reference: 'test funds' }, new Date()),
  );
  return { partnerId, document };
}
const command = (partnerId: PartnerId, document: string, overrides: Partial<CreateWithdrawalCommand> = {}): CreateWithdrawalCommand => ({
  partner_id: partnerId,
  ...withdrawalRequest(document, overrides),
});
const balanceOf = async (partnerId: PartnerId, document: string) => accounts.find(partnerId, document);
const outboxStates = async (partnerId: string) =>
  outboxStatesOf(await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages ORDER BY id'), partnerId);

describe('screening of destinations (PostgreSQL + the local chains)', () => {
  it('loads the SDN copy it ships with at start (dated), and refuses a copy older than the one in use', async () => {
    await sdn.onApplicationBootstrap();
    await sdn.onApplicationBootstrap();
    const inUse = (await status.execute()).lists.find((l) => l.list === 'ofac_sdn');
    expect(inUse?.published_at).toBeGreaterThanOrEqual(OFAC_SDN_COPY.publishedAt.getTime() / 1000);
    expect(inUse?.addresses).toBeGreaterThanOrEqual(OFAC_SDN_COPY.addresses.length);
    const older = await sdn.execute({
      source: 'an old copy',
      published_at: OFAC_SDN_COPY.publishedAt.getTime() / 1000 - 86_400,
      addresses: [freshAddress()],
      by,
      asked_at: asked(),
    });
    expect(older).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    expect((await status.execute()).lists.find((l) => l.list === 'ofac_sdn')).toEqual(inUse);
  });

  it.each([
    ['ofac_sdn', async () => OFAC_SDN_COPY.addresses[0], /is on the OFAC SDN list \(the copy published \d{4}-\d{2}-\d{2}\)/],
    [
      'deny_list',
      async () => {
        const address = freshAddress();
        await denyList.add({ address, note: 'fraud report', by, asked_at: asked() });
        return address;
      },
      /is on the operator's deny list/,
    ],
    [
      'token_blacklist',
      async () => {
        const address = freshAddress();
        await tokenAdmin(matic.rpcUrl, matic.token).blacklist(address);
        return address;
      },
      /is blacklisted by the USDT contract on MATIC \(isBlackListed\)/,
    ],
  ])(
    'refuses a withdrawal to an address on the %s at request: address_blocked, nothing created or held',
    async (_list, listed, message) => {
      const address = await listed();
      const { partnerId, document } = await newAccount();
      const reply = await create.execute(command(partnerId, document, { address, network: 'MATIC' }));
      expect(reply).toEqual({ ok: false, error: { code: 'address_blocked', message: expect.stringMatching(message), field: 'address' } });
      expect(await selectCount(db, 'SELECT count(*) FROM withdrawals WHERE partner_id = $1', [partnerId])).toBe(0);
      expect(await balanceOf(partnerId, document)).toEqual({ availableMicros: FUNDS, heldMicros: 0n });
    },
  );

  it('a retry of a withdrawal accepted before its address was listed answers that withdrawal, not a refusal', async () => {
    const { partnerId, document } = await newAccount();
    const first = command(partnerId, document, { address: freshAddress() });
    const accepted = await create.execute(first);
    if (!accepted.ok) throw new Error('refused');
    await unitOfWork.run((tx) => lists.deny(tx, { address: first.address.toLowerCase(), note: 'later', addedBy: by, addedAt: new Date() }));
    expect(await create.execute(first)).toEqual({ ok: true, data: { id: accepted.data.id, created: false } });
  });

  it('a deny-list entry fails, in its transaction, the withdrawals waiting to that address: address_blocked, holds released, events', async () => {
    const address = freshAddress();
    const { partnerId, document } = await newAccount();
    const waiting = await create.execute(command(partnerId, document, { address: address.toLowerCase(), usdtmicros: 3_000_000 }));
    if (!waiting.ok) throw new Error('refused');
    const added = await denyList.add({ address, note: 'sanctioned wallet', by, asked_at: asked() });
    expect(added).toMatchObject({
      ok: true,
      data: { created: true, failed_withdrawals: [waiting.data.id], address: address.toLowerCase() },
    });
    const row = await selectRow<{ state: string; failure_reason: string; nonce: string | null }>(
      db,
      'SELECT * FROM withdrawals WHERE id = $1',
      [waiting.data.id],
    );
    expect(row).toMatchObject({ state: 'failed', failure_reason: 'address_blocked', nonce: null });
    expect(await balanceOf(partnerId, document)).toEqual({ availableMicros: FUNDS, heldMicros: 0n });
    expect(await outboxStates(partnerId)).toEqual(['created', 'failed']);
    // Again: the first entry stays, nothing more fails.
    expect(await denyList.add({ address, note: 'again', by, asked_at: asked() })).toMatchObject({
      ok: true,
      data: { created: false, note: 'sanctioned wallet', failed_withdrawals: [] },
    });
    expect(await denyList.remove({ address, by, asked_at: asked() })).toMatchObject({ ok: true, data: { address: address.toLowerCase() } });
    expect(await denyList.remove({ address, by, asked_at: asked() })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('a new SDN copy replaces the old one whole and fails the withdrawals waiting to its new addresses', async () => {
    const address = freshAddress();
    const { partnerId, document } = await newAccount();
    const waiting = await create.execute(command(partnerId, document, { address }));
    if (!waiting.ok) throw new Error('refused');
    const loaded = await sdn.execute({
      source: 'sdn_advanced.xml of today',
      published_at: Math.floor(Date.now() / 1000),
      addresses: [...OFAC_SDN_COPY.addresses, address],
      by,
      asked_at: asked(),
    });
    expect(loaded).toMatchObject({
      ok: true,
      data: {
        list: 'ofac_sdn',
        source: 'sdn_advanced.xml of today',
        loaded_by: by,
        addresses: OFAC_SDN_COPY.addresses.length + 1,
        failed_withdrawals: [waiting.data.id],
      },
    });
    expect(await outboxStates(partnerId)).toEqual(['created', 'failed']);
    expect(await selectCount(db, `SELECT count(*) FROM screened_addresses WHERE list = 'ofac_sdn'`)).toBe(
      OFAC_SDN_COPY.addresses.length + 1,
    );
  });
});
