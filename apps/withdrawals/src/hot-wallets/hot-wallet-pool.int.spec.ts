import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@partner/config';
import { PartnerId } from '@partner/contracts';
import { Database } from '@partner/db';
import {
  mineBlock,
  pendingTransactions,
  pollUntil,
  setBlacklistedNow,
  setMining,
  setNativeBalance,
  tokenAdmin,
  tokenBalance,
  transferLogs,
} from '@partner/testing';
import { parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { HotWalletRepository } from './hot-wallet.repository';
import { ListHotWalletsUseCase } from './list-hot-wallets.use-case';
import { ReconciliationRepository } from '../reconciliation/reconciliation.repository';
import { StepFindingUseCase } from '../reconciliation/step-finding.use-case';
import { GetWithdrawalUseCase } from '../withdrawals/get-withdrawal.use-case';
import { WaitingReasons } from '../withdrawals/waiting-reasons.service';
import { WithdrawalRepository } from '../withdrawals/withdrawal.repository';
import { payoutFixtures, payoutKit } from '../payouts/payout-kit.spec-support';
import { PayoutRepository } from '../payouts/payout.repository';

// Integration: a pool of hot wallets of its own (fresh keys, funded here) on the local MATIC node, so that
// blacklisting or draining them touches no other spec's wallet. Nothing of the chain is mocked.
const base = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(base, DB_SCHEMA);
const { withdraw, row, eventStates, versions, unitOfWork, accounts } = payoutFixtures(db);
const hotWallets = new HotWalletRepository(db);
const matic = payoutKit(base, db).settings.MATIC;
const admin = tokenAdmin(matic.rpcUrl, matic.token);
const USDT = 1_000_000;

afterAll(() => db.close());

/** `n` fresh wallets, each with `usdt` USDT and 10 POL for gas on MATIC: their key files and addresses. */
async function freshWallets(n: number, usdt: number): Promise<{ files: string; addresses: `0x${string}`[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'pool-'));
  const keys = Array.from({ length: n }, () => generatePrivateKey());
  const files = keys.map((key, i) => {
    const file = join(dir, `hot-wallet-${i}.key`);
    writeFileSync(file, `${key}\n`);
    chmodSync(file, 0o600);
    return file;
  });
  const addresses = keys.map((k) => privateKeyToAccount(k).address);
  for (const a of addresses) {
    await setNativeBalance(matic.rpcUrl, a, parseEther('10'));
    if (usdt > 0) await admin.issueTo(a, BigInt(usdt * USDT));
  }
  return { files: files.join(','), addresses };
}

/** The payouts of a pool of these key files (and settings), wired as the module wires them; its lanes registered. */
async function poolKit(files: string, env: Record<string, string> = {}) {
  const kit = payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, HOT_WALLET_KEY_FILE: files, ...env }), db);
  await kit.rounds.checkChains();
  const view = new ListHotWalletsUseCase(kit.config, hotWallets, kit.rails, kit.pool);
  const lane = async (address: string) =>
    (await view.execute()).hot_wallets.find((h) => h.network === 'MATIC' && h.address.toLowerCase() === address.toLowerCase());
  // What the partner reads back (GET /partner/v1/withdrawals/usdt/{id}) with this pool configured.
  const read = new GetWithdrawalUseCase(new WithdrawalRepository(db), new WaitingReasons(hotWallets, kit.pool));
  const waitingReason = async (w: { id: number; partnerId: PartnerId }) => {
    const reply = await read.execute({ partner_id: w.partnerId, id: w.id });
    if (!reply.ok) throw new Error(`withdrawal ${w.id}: ${reply.error.code}`);
    return reply.data.waiting_reason;
  };
  return { ...kit, view, lane, waitingReason };
}

/** Rounds of `kit` until `check` holds of what `read` answers. */
async function roundsUntil<T>(
  kit: { rounds: { runOnce(): Promise<void> } },
  what: string,
  read: () => Promise<T>,
  check: (v: T) => boolean,
) {
  return pollUntil(what, async () => (await kit.rounds.runOnce(), read()), check, { timeoutMs: 30_000, intervalMs: 100 });
}

describe('a pool of hot wallets on the local MATIC node (issue #48)', () => {
  it('pays over every lane, each with its own nonces, the least loaded first', async () => {
    const { files, addresses } = await freshWallets(2, 100);
    const kit = await poolKit(files);
    const ws = await Promise.all([1, 2, 3, 4].map(() => withdraw('MATIC', 2 * USDT)));
    await kit.until(
      ws.map((w) => w.id),
      ['settled'],
    );
    const rows = await Promise.all(ws.map((w) => row(w.id)));
    const byWallet = new Map<string, string[]>();
    for (const r of rows) byWallet.set(r.from_address ?? '', [...(byWallet.get(r.from_address ?? '') ?? []), r.nonce ?? '']);
    expect([...byWallet.keys()].sort()).toEqual(addresses.map((a) => a.toLowerCase()).sort());
    for (const nonces of byWallet.values()) expect(new Set(nonces).size).toBe(nonces.length);
    for (const w of ws) expect(await transferLogs(matic.rpcUrl, matic.token, { to: w.address })).toHaveLength(1);
  });

  it('a token that refuses the wallets signs nothing and fails no one: the lanes wait, then pay once it is lifted', async () => {
    const { files, addresses } = await freshWallets(2, 50);
    const kit = await poolKit(files);
    for (const a of addresses) await admin.blacklist(a);
    try {
      const w = await withdraw('MATIC', 3 * USDT);
      await roundsUntil(
        kit,
        'both lanes waiting for the token',
        () => Promise.all(addresses.map((a) => kit.lane(a))),
        (lanes) => lanes.every((l) => l?.state === 'waiting' && l.reason === 'token_refuses_wallet'),
      );
      for (let i = 0; i < 3; i++) await kit.rounds.runOnce();
      expect(await row(w.id)).toMatchObject({ state: 'created', payout_state: 'queued', nonce: null });
      // Never a silent hold: the partner reads why it waits.
      expect(await kit.waitingReason(w)).toBe('operator_wallet_unavailable');
      expect(await versions(w.id)).toEqual([]);
      expect(await kit.metrics.waiting.get()).toMatchObject({
        values: expect.arrayContaining([
          expect.objectContaining({ labels: { network: 'MATIC', reason: 'token_refuses_wallet' }, value: 2 }),
        ]),
      });
      // One wallet lifted: it pays, the other still waits.
      await admin.unblacklist(addresses[0]);
      await kit.until([w.id], ['settled']);
      expect((await row(w.id)).from_address).toBe(addresses[0].toLowerCase());
      expect(await kit.lane(addresses[0])).toMatchObject({ state: 'active', reason: null });
      expect(await kit.lane(addresses[1])).toMatchObject({ state: 'waiting', reason: 'token_refuses_wallet' });
      expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled']);
    } finally {
      for (const a of addresses) await admin.unblacklist(a);
    }
  });

  it('a drained float makes the lane wait (usdt_short), in turn, and a top-up pays without anyone failed', async () => {
    const { files, addresses } = await freshWallets(1, 20);
    const kit = await poolKit(files);
    await admin.drain(addresses[0]);
    const first = await withdraw('MATIC', 4 * USDT);
    const second = await withdraw('MATIC', 1 * USDT);
    await roundsUntil(
      kit,
      'the lane waiting for USDT',
      () => kit.lane(addresses[0]),
      (l) => l?.state === 'waiting' && l.reason === 'usdt_short',
    );
    // Waiting in turn, not aside: no wallet of the pool holds anything at all.
    expect([(await row(first.id)).payout_state, (await row(second.id)).payout_state]).toEqual(['queued', 'queued']);
    expect([await kit.waitingReason(first), await kit.waitingReason(second)]).toEqual(['awaiting_liquidity', 'awaiting_liquidity']);
    await admin.issueTo(addresses[0], BigInt(10 * USDT));
    await kit.until([first.id, second.id], ['settled']);
    expect(await kit.waitingReason(first)).toBeNull();
    expect(BigInt((await row(first.id)).nonce ?? -1)).toBeLessThan(BigInt((await row(second.id)).nonce ?? -1));
    expect(await kit.lane(addresses[0])).toMatchObject({ state: 'active' });
  });

  it('one withdrawal larger than every float waits aside while the smaller ones after it are paid; a top-up pays it once', async () => {
    const { files, addresses } = await freshWallets(2, 10);
    const kit = await poolKit(files);
    const big = await withdraw('MATIC', 25 * USDT);
    const small = await Promise.all([1, 2, 3].map(() => withdraw('MATIC', 1 * USDT)));
    await kit.until(
      small.map((w) => w.id),
      ['settled'],
    );
    expect(await row(big.id)).toMatchObject({ state: 'created', payout_state: 'aside', payout_reason: 'exceeds_float', nonce: null });
    expect(await kit.waitingReason(big)).toBe('awaiting_liquidity');
    expect((await kit.view.execute()).aside).toEqual(
      expect.arrayContaining([expect.objectContaining({ network: 'MATIC', reason: 'exceeds_float', count: expect.any(Number) })]),
    );
    await admin.issueTo(addresses[1], BigInt(30 * USDT));
    await kit.until([big.id], ['settled']);
    expect(await row(big.id)).toMatchObject({ from_address: addresses[1].toLowerCase(), payout_state: 'finished', payout_reason: null });
    expect(await transferLogs(matic.rpcUrl, matic.token, { to: big.address })).toEqual([
      expect.objectContaining({ value: BigInt(25 * USDT) }),
    ]);
  });

  it('keeps at most CHAIN_MAX_IN_FLIGHT_PER_WALLET transactions unmined per wallet; the rest wait their turn', async () => {
    const { files, addresses } = await freshWallets(1, 20);
    const kit = await poolKit(files, { CHAIN_MAX_IN_FLIGHT_PER_WALLET: '2' });
    await setMining(matic.rpcUrl, { auto: false, intervalMs: 0 });
    let ws: Awaited<ReturnType<typeof withdraw>>[] = [];
    try {
      ws = await Promise.all([1, 2, 3, 4].map(() => withdraw('MATIC', 1 * USDT)));
      await roundsUntil(
        kit,
        'two signed, the lane full',
        () => kit.lane(addresses[0]),
        (l) => l?.in_flight === 2,
      );
      for (let i = 0; i < 3; i++) await kit.rounds.runOnce();
      const states = await Promise.all(ws.map(async (w) => (await row(w.id)).payout_state));
      expect(states.filter((s) => s === 'queued')).toHaveLength(2);
      // Full is busy, not held back: the lane stays active; the metric counts it full.
      expect(await kit.lane(addresses[0])).toMatchObject({ state: 'active', in_flight: 2 });
      expect(await kit.metrics.waiting.get()).toMatchObject({
        values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'MATIC', reason: 'in_flight_cap' }, value: 1 })]),
      });
    } finally {
      await setMining(matic.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await kit.until(
      ws.map((w) => w.id),
      ['settled'],
    );
  });

  it('re-prices only the lowest stuck nonce of a lane; the transactions waiting behind it keep their one version', async () => {
    const { files } = await freshWallets(1, 20);
    const kit = await poolKit(files, { CHAIN_REPLACE_AFTER_MS_MATIC: '1000' });
    await setMining(matic.rpcUrl, { auto: false, intervalMs: 0 });
    let ws: Awaited<ReturnType<typeof withdraw>>[] = [];
    try {
      ws = [];
      for (let i = 0; i < 3; i++) ws.push(await withdraw('MATIC', 1 * USDT));
      await roundsUntil(
        kit,
        'all three accepted',
        () => Promise.all(ws.map(async (w) => (await row(w.id)).state)),
        (s) => s.every((x) => x === 'sent'),
      );
      const lowest = [...ws].sort((a, b) => a.id - b.id)[0];
      await roundsUntil(
        kit,
        'the lowest nonce replaced twice (the second after a longer wait)',
        () => versions(lowest.id),
        (v) => v.length >= 3,
      );
      for (const w of ws.filter((x) => x.id !== lowest.id)) expect(await versions(w.id)).toHaveLength(1);
    } finally {
      await setMining(matic.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await kit.until(
      ws.map((w) => w.id),
      ['settled'],
    );
    for (const w of ws) expect(await transferLogs(matic.rpcUrl, matic.token, { to: w.address })).toHaveLength(1);
  });

  it('a cancel takes the stuck nonce with a 0-value self-transfer; the withdrawal gets a new nonce and is paid once', async () => {
    const { files, addresses } = await freshWallets(1, 20);
    const kit = await poolKit(files);
    const payouts = new PayoutRepository(db);
    await setMining(matic.rpcUrl, { auto: false, intervalMs: 0 });
    let w: Awaited<ReturnType<typeof withdraw>>;
    let firstNonce: string | null;
    try {
      w = await withdraw('MATIC', 2 * USDT);
      await roundsUntil(
        kit,
        'accepted by the node',
        () => row(w.id),
        (r) => r.state === 'sent',
      );
      firstNonce = (await row(w.id)).nonce;
      expect(await unitOfWork.run((tx) => payouts.requestCancel(tx, w.id, 'spec: a nonce that can never be mined'))).toMatchObject({
        payout: { state: 'cancelling' },
      });
      const cancel = await roundsUntil(
        kit,
        'the cancel signed and accepted',
        async () => (await versions(w.id)).find((v) => v.kind === 'cancel'),
        (v) => v !== undefined,
      );
      // The node holds the cancel in place of the transfer (the same nonce, higher fees).
      expect(await pendingTransactions(matic.rpcUrl)).toContain(cancel?.tx_hash);
      await mineBlock(matic.rpcUrl);
    } finally {
      await setMining(matic.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await kit.until([w.id], ['settled']);
    const paid = await row(w.id);
    expect(BigInt(paid.nonce ?? -1)).toBeGreaterThan(BigInt(firstNonce ?? -1));
    expect(await transferLogs(matic.rpcUrl, matic.token, { to: w.address })).toEqual([
      expect.objectContaining({ value: 2_000_000n, txHash: paid.tx_hash, from: addresses[0] }),
    ]);
    expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled']);
    expect(await kit.metrics.cancels.get()).toMatchObject({
      values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'MATIC', outcome: 'cancelled' }, value: 1 })]),
    });
  });

  it('stops a lane after CHAIN_REVERTS_TO_STOP reverts in a row (a finding); resolving it lets the lane sign again', async () => {
    const { files, addresses } = await freshWallets(1, 20);
    const kit = await poolKit(files, { CHAIN_REVERTS_TO_STOP: '2' });
    const [wallet] = addresses;
    await setMining(matic.rpcUrl, { auto: false, intervalMs: 0 });
    let ws: Awaited<ReturnType<typeof withdraw>>[] = [];
    try {
      ws = await Promise.all([1, 2].map(() => withdraw('MATIC', 1 * USDT)));
      await roundsUntil(
        kit,
        'both signed and accepted',
        () => Promise.all(ws.map(async (w) => (await row(w.id)).state)),
        (s) => s.every((x) => x === 'sent'),
      );
      // The token turns against the wallet after the pre-flight, before the block: both transfers revert.
      await setBlacklistedNow(matic.rpcUrl, matic.token, wallet, true);
    } finally {
      await setMining(matic.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await kit.until(
      ws.map((w) => w.id),
      ['failed'],
    );
    const stopped = await roundsUntil(
      kit,
      'the lane stopped',
      () => kit.lane(wallet),
      (l) => l?.state === 'stopped',
    );
    await setBlacklistedNow(matic.rpcUrl, matic.token, wallet, false);
    const next = await withdraw('MATIC', 1 * USDT);
    for (let i = 0; i < 3; i++) await kit.rounds.runOnce();
    expect((await row(next.id)).payout_state).toBe('queued');
    const findings = new ReconciliationRepository(db);
    const steps = new StepFindingUseCase(unitOfWork, findings, hotWallets, new PayoutRepository(db), accounts);
    expect((await findings.list(50)).find((f) => f.id === stopped?.stopped_by)).toMatchObject({ kind: 'reverts_in_a_row', status: 'open' });
    await steps.execute({
      finding_id: stopped?.stopped_by ?? 0,
      step: 'resolve',
      note: 'spec: the token lifted the blacklist',
      by: 'spec',
      asked_at: new Date().toISOString(),
    });
    await kit.until([next.id], ['settled']);
    expect(await kit.lane(wallet)).toMatchObject({ state: 'active' });
    expect(await tokenBalance(matic.rpcUrl, matic.token, next.address)).toBe(1_000_000n);
  });

  it('a retired wallet signs nothing new but follows what it signed to the end', async () => {
    const { files, addresses } = await freshWallets(2, 20);
    const kit = await poolKit(files);
    await setMining(matic.rpcUrl, { auto: false, intervalMs: 0 });
    let w: Awaited<ReturnType<typeof withdraw>>;
    let retiring: `0x${string}`;
    try {
      w = await withdraw('MATIC', 1 * USDT);
      await roundsUntil(
        kit,
        'signed and accepted',
        () => row(w.id),
        (r) => r.state === 'sent',
      );
      const signedBy = (await row(w.id)).from_address;
      retiring = addresses.find((a) => a.toLowerCase() === signedBy) ?? addresses[0];
    } finally {
      await setMining(matic.rpcUrl, { auto: false, intervalMs: 250 });
    }
    const after = await poolKit(files, { HOT_WALLETS_RETIRED: retiring });
    const next = await withdraw('MATIC', 1 * USDT);
    await after.until([w.id, next.id], ['settled']);
    expect((await row(w.id)).from_address).toBe(retiring.toLowerCase());
    expect((await row(next.id)).from_address).not.toBe(retiring.toLowerCase());
    expect(await after.lane(retiring)).toMatchObject({ state: 'retired', reason: 'HOT_WALLETS_RETIRED', in_flight: 0 });
  });
});
