import { loadConfig } from '@partner/config';
import { FindingStepCommand, Network } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import {
  newCpf,
  newUuid,
  outsideTransfer,
  pollUntil,
  sendAs,
  testPartnerId,
  whilePayoutRoundHeld,
  withdrawalRequest,
} from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { ListHotWalletsUseCase } from '../hot-wallets/list-hot-wallets.use-case';
import { payoutKit } from '../payouts/payout-kit.spec-support';
import { PayoutRepository } from '../payouts/payout.repository';
import { ReconciliationRepository } from './reconciliation.repository';
import { StepFindingUseCase } from './step-finding.use-case';
import { listsScreening } from '../screening/screening.spec-support';
import { createWithdrawalUseCase } from '../withdrawals/create-withdrawal.spec-support';

// Integration: the books against the chain on the test database and the local chains npm test starts. The
// faults are made on the node itself: transactions sent AS the hot wallet (hardhat_impersonateAccount),
// as a stolen key or a restored backup would. Everything here runs on MATIC, one case after another (they
// move the wallet's nonce); other files' rounds on MATIC only wait meanwhile.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const accounts = new AccountRepository(db);
const findings = new ReconciliationRepository(db);
const create = createWithdrawalUseCase(db, unitOfWork, listsScreening(config, db));
const kit = payoutKit(config, db);
const matic = kit.settings.MATIC;
const wallet = kit.signer.address;
const steps = new StepFindingUseCase(unitOfWork, findings, new HotWalletRepository(db), new PayoutRepository(db), accounts);
const hotWallets = new ListHotWalletsUseCase(config, new HotWalletRepository(db), kit.rails, kit.pool);

afterAll(() => db.close());
beforeAll(() => kit.rounds.checkChains());

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const step = (finding_id: number, s: FindingStepCommand['step'], note: string) =>
  steps.execute({ finding_id, step: s, note, by: 'spec (adm_spec)', asked_at: new Date().toISOString() });

async function withdraw(usdtmicros: number) {
  const partnerId = testPartnerId();
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(
      tx,
      { partnerId, idempotencyKey: newUuid(), document, micros: BigInt(usdtmicros + 10_000_000), reference: 'funds' },
      new Date(),
    ),
  );
  const reply = await create.execute({
    partner_id: partnerId,
    ...withdrawalRequest(document, { network: 'MATIC', usdtmicros, address: freshAddress(), fee_choice: 'LOW' }),
  });
  if (!reply.ok) throw new Error(`withdrawal refused: ${reply.error.code}`);
  return { id: reply.data.id, partnerId, document };
}

const row = async (id: number) =>
  (await db.query<{ state: string; nonce: string | null; failure_reason: string | null }>('SELECT * FROM withdrawals WHERE id = $1', [id]))
    .rows[0];

/** Runs `work` while no payout round of MATIC runs (it holds the round's lease): nothing of ours is signed and unsent meanwhile. */
const roundsHeld = <T>(work: () => Promise<T>): Promise<T> => whilePayoutRoundHeld(db, 'MATIC', work);

/** Resolves every open nonce_ahead finding of MATIC, as an operator would, until the wallet signs again. */
async function resolveStops(network: Network = 'MATIC'): Promise<void> {
  await pollUntil(
    `the ${network} wallet signing again`,
    async () => {
      for (const f of await findings.list(200, 'open'))
        if (f.kind === 'nonce_ahead' && f.network === network) await step(f.id, 'resolve', 'a spec moved the nonce');
      return kit.guard.execute(network, wallet);
    },
    (stop) => stop === null,
  );
}

describe('the books against the chain (PostgreSQL + real EVM nodes)', () => {
  afterEach(() => resolveStops());

  it('reports each USDT transfer out of the hot wallet that no withdrawal made: one finding each, with hash, destination and amount', async () => {
    const ours = await withdraw(1_050_000);
    await kit.until([ours.id], ['settled']);
    const paid = (await db.query<{ tx_hash: string }>('SELECT tx_hash FROM withdrawals WHERE id = $1', [ours.id])).rows[0].tx_hash;
    const to = freshAddress();
    // The same destination and amount twice: still two transfers, two findings.
    const first = await roundsHeld(() => outsideTransfer(matic.rpcUrl, matic.token, wallet, to, 1_230_000n));
    const second = await roundsHeld(() => outsideTransfer(matic.rpcUrl, matic.token, wallet, to, 1_230_000n));
    const reported = () =>
      db.query<{ id: string; subject: string; detail: string; status: string; withdrawal_id: number | null }>(
        `SELECT * FROM reconciliation_findings WHERE network = 'MATIC' AND kind = 'outside_transfer' AND (subject LIKE $1 OR subject LIKE $2) ORDER BY id`,
        [`transfer:${first}:%`, `transfer:${second}:%`],
      );
    const { rows } = await pollUntil(
      'both transfers reported once final',
      async () => (await kit.reconcile.execute(), reported()),
      (r) => r.rows.length === 2,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(rows.map((r) => [r.subject.split(':')[1], r.status, r.withdrawal_id])).toEqual([
      [first, 'open', null],
      [second, 'open', null],
    ]);
    for (const [r, hash] of [
      [rows[0], first],
      [rows[1], second],
    ] as const) {
      expect(r.detail).toContain(`${hash} (log `);
      expect(r.detail).toContain(`moved 1230000 USDT micros from ${wallet.toLowerCase()} to ${to.toLowerCase()}; no withdrawal of ours`);
    }
    // Seen again by a later run: not new. Our own payout in the same blocks scanned: explained, no finding.
    await kit.reconcile.execute();
    expect((await reported()).rows).toHaveLength(2);
    expect((await db.query(`SELECT 1 FROM reconciliation_findings WHERE subject LIKE $1`, [`transfer:${paid}:%`])).rows).toEqual([]);
    const scanned = await db.query<{ scanned_block: string }>('SELECT scanned_block FROM hot_wallets WHERE network = $1', ['MATIC']);
    expect(BigInt(scanned.rows[0].scanned_block)).toBeGreaterThan(0n);
  });

  it('a transaction the books never signed stops signing on the network until its finding is resolved; then payouts go on', async () => {
    const theft = await roundsHeld(() => sendAs(matic.rpcUrl, wallet, { to: freshAddress(), value: 1n }));
    const w = await withdraw(1_100_000);
    const view = await pollUntil(
      'the MATIC wallet stopped',
      async () => (await kit.rounds.runOnce(), (await hotWallets.execute()).hot_wallets.find((h) => h.network === 'MATIC')),
      (v) => v?.state === 'stopped',
    );
    for (let i = 0; i < 3; i++) await kit.rounds.runOnce();
    expect(await row(w.id)).toMatchObject({ state: 'created', nonce: null });
    expect(view?.stopped_reason).toMatch(/nonces \d+ to \d+ were mined by transactions this service never signed/);
    const [finding] = (
      await db.query<{ kind: string; status: string; subject: string }>('SELECT * FROM reconciliation_findings WHERE id = $1', [
        view?.stopped_by,
      ])
    ).rows;
    expect(finding).toMatchObject({
      kind: 'nonce_ahead',
      status: 'open',
      subject: expect.stringMatching(`^nonce:${wallet.toLowerCase()}:`),
    });
    expect(theft).toMatch(/^0x/);
    expect(await kit.metrics.waiting.get()).toMatchObject({
      values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'MATIC', reason: 'stopped' }, value: 1 })]),
    });
    // Acknowledged: someone is on it, the wallet still signs nothing.
    expect(await step(view?.stopped_by ?? 0, 'acknowledge', 'looking')).toMatchObject({ ok: true, data: { status: 'acknowledged' } });
    await kit.rounds.runOnce();
    expect((await row(w.id)).nonce).toBeNull();
    expect(await step(view?.stopped_by ?? 0, 'resolve', 'key rotated')).toMatchObject({
      ok: true,
      data: { status: 'resolved', resolved_by: 'spec (adm_spec)', note: 'looking\nkey rotated' },
    });
    expect(await step(view?.stopped_by ?? 0, 'resolve', 'again')).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    await kit.until([w.id], ['settled']);
    expect((await hotWallets.execute()).hot_wallets.find((h) => h.network === 'MATIC')).toMatchObject({
      state: 'active',
      stopped_by: null,
    });
  });

  it('a nonce another transaction took: nonce_taken, and resolving it fails the withdrawal and releases the hold', async () => {
    const w = await withdraw(1_200_000);
    const before = await accounts.find(w.partnerId, w.document);
    // Signed and stored, not yet broadcast; the thief's transaction takes exactly its nonce first.
    await roundsHeld(async () => {
      await kit.rounds['sign'].execute(matic);
      const nonce = (await row(w.id)).nonce;
      if (nonce === null) throw new Error('not signed');
      await sendAs(matic.rpcUrl, wallet, { to: freshAddress(), value: 1n, nonce: Number(nonce) });
    });
    const finding = await pollUntil(
      'nonce_taken recorded',
      async () => {
        await kit.rounds.runOnce();
        return (
          await db.query<{ id: string; status: string }>(
            `SELECT * FROM reconciliation_findings WHERE kind = 'nonce_taken' AND withdrawal_id = $1`,
            [w.id],
          )
        ).rows[0];
      },
      (f) => f !== undefined,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(finding.status).toBe('open');
    expect((await row(w.id)).state).not.toBe('failed');
    expect(await step(Number(finding.id), 'resolve', 'checked on the explorer: not paid')).toMatchObject({ ok: true });
    expect(await row(w.id)).toMatchObject({ state: 'failed', failure_reason: 'nonce_taken' });
    expect(await accounts.find(w.partnerId, w.document)).toEqual({
      availableMicros: (before?.availableMicros ?? 0n) + (before?.heldMicros ?? 0n),
      heldMicros: 0n,
    });
    const events = await db.query<{ state: string }>(`SELECT payload->>'state' AS state FROM outbox_messages WHERE key = $1 ORDER BY id`, [
      `usdt_withdrawal:${w.id}`,
    ]);
    expect(events.rows.map((e) => e.state).at(-1)).toBe('failed');
  });

  it('a step on a finding that does not exist is not_found', async () => {
    expect(await step(2_000_000_000, 'acknowledge', 'x')).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
