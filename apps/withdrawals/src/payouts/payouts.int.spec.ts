import { loadConfig } from '@partner/config';
import { Database } from '@partner/db';
import {
  dropTransaction,
  FAILING_ADDRESS,
  pollUntil,
  mineBlock,
  setMining,
  tokenAdmin,
  tokenBalance,
  transferLogs,
} from '@partner/testing';
import { createPublicClient, createTestClient, http } from 'viem';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { ChainMismatchError } from './payout-rounds.service';
import { freshAddress, payoutFixtures, payoutKit } from './payout-kit.spec-support';
import { ScreeningRepository } from '../screening/screening.repository';
import { aboutReceiptsTo, lyingNode, oneMicroMore, onAnotherFork, reverted } from './lying-node.spec-support';

// Integration: the test database and the local chains npm test starts (a real EVM node per network, the
// USDT-like token, the hot wallet funded). Nothing of the chain is mocked: balances are read off the node.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const fixtures = payoutFixtures(db);
const { accounts, withdraw, row, eventStates, versions } = fixtures;
const kit = payoutKit(config, db);
const eth = kit.settings.ETH;

afterAll(() => db.close());

beforeAll(async () => {
  await kit.rounds.checkChains();
});

describe('payouts on the local chains (PostgreSQL + real EVM nodes)', () => {
  it.each(['ETH', 'MATIC'] as const)(
    'pays a withdrawal on %s: created, sent, settled, and the destination holds the amount',
    async (network) => {
      const w = await withdraw(network, 2_500_000);
      await kit.until([w.id], ['settled']);
      const settled = await row(w.id);
      expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled']);
      expect(await tokenBalance(kit.settings[network].rpcUrl, kit.settings[network].token, w.address)).toBe(2_500_000n);
      const logs = await transferLogs(kit.settings[network].rpcUrl, kit.settings[network].token, { to: w.address });
      expect(logs).toEqual([expect.objectContaining({ from: kit.signer.address, value: 2_500_000n, txHash: settled.tx_hash })]);
      expect(settled.block_number).toBe(String(logs[0].blockNumber));
      expect(BigInt(settled.gas_cost_wei ?? '0')).toBeGreaterThan(0n);
      // The hold paid out: nothing held, the amount and the fee gone from the user's balance.
      expect((await accounts.find(w.partnerId, w.document))?.heldMicros).toBe(0n);
    },
  );

  it('a destination the token refuses fails before signing (destination_refused): nothing signed, the hold released', async () => {
    const w = await withdraw('MATIC', 1_000_000, FAILING_ADDRESS);
    const before = await accounts.find(w.partnerId, w.document);
    await kit.until([w.id], ['failed', 'settled']);
    const failed = await row(w.id);
    expect([failed.state, failed.failure_reason, failed.tx_hash, failed.nonce, failed.payout_state]).toEqual([
      'failed',
      'destination_refused',
      null,
      null,
      'finished',
    ]);
    expect(await eventStates(w.id)).toEqual(['created', 'failed']);
    // No gas burnt on it: nothing was ever signed.
    expect(await versions(w.id)).toEqual([]);
    expect(await accounts.find(w.partnerId, w.document)).toEqual({
      availableMicros: (before?.availableMicros ?? 0n) + (before?.heldMicros ?? 0n),
      heldMicros: 0n,
    });
  });

  it('a destination the token blacklists after the withdrawal was accepted is never signed (Tether would pay it, frozen): address_blocked', async () => {
    const w = await withdraw('MATIC', 1_100_000);
    await tokenAdmin(kit.settings.MATIC.rpcUrl, kit.settings.MATIC.token).blacklist(w.address);
    await kit.until([w.id], ['failed', 'settled']);
    expect(await row(w.id)).toMatchObject({ state: 'failed', failure_reason: 'address_blocked', tx_hash: null, nonce: null });
    expect(await eventStates(w.id)).toEqual(['created', 'failed']);
    expect(await versions(w.id)).toEqual([]);
    expect(await tokenBalance(kit.settings.MATIC.rpcUrl, kit.settings.MATIC.token, w.address)).toBe(0n);
    expect((await accounts.find(w.partnerId, w.document))?.heldMicros).toBe(0n);
  });

  it('a deny-list entry written while it waits stops it at the signing round: address_blocked, nothing signed', async () => {
    const w = await withdraw('ETH', 1_200_000);
    // Straight into the list, without the sweep the operator API's add runs: the round's own screening must catch it.
    await fixtures.unitOfWork.run((tx) =>
      new ScreeningRepository(db).deny(tx, { address: w.address.toLowerCase(), note: 'spec', addedBy: 'spec', addedAt: new Date() }),
    );
    await kit.until([w.id], ['failed', 'settled']);
    expect(await row(w.id)).toMatchObject({ state: 'failed', failure_reason: 'address_blocked', tx_hash: null });
    expect(await versions(w.id)).toEqual([]);
  });

  it('one payout the database refuses to end does not hold the others back: a finding, and it ends once mended', async () => {
    const bad = await withdraw('MATIC', 1_010_000);
    const good = await withdraw('MATIC', 1_020_000);
    // The first one's hold vanishes from its account (a hand-made edit gone wrong): ending it can only fail.
    await db.query('UPDATE accounts SET held_micros = 0 WHERE partner_id = $1 AND document = $2', [bad.partnerId, bad.document]);
    await kit.until([good.id], ['settled']);
    expect((await row(bad.id)).state).toBe('sent');
    const { rows } = await db.query<{ kind: string }>('SELECT kind FROM reconciliation_findings WHERE withdrawal_id = $1', [bad.id]);
    expect(rows).toEqual([{ kind: 'finish_refused' }]);
    const held =
      1_010_000 +
      Number((await db.query<{ fee_micros: string }>('SELECT fee_micros FROM withdrawals WHERE id = $1', [bad.id])).rows[0].fee_micros);
    await db.query('UPDATE accounts SET held_micros = $3 WHERE partner_id = $1 AND document = $2', [bad.partnerId, bad.document, held]);
    await kit.until([bad.id], ['settled']);
    expect(await eventStates(bad.id)).toEqual(['created', 'sent', 'settled']);
  });

  it('three instances running rounds at once pay each withdrawal once, each with its own nonce', async () => {
    const kits = [kit, payoutKit(config, db), payoutKit(config, db)];
    const ws = await Promise.all([1, 2, 3, 4, 5].map(() => withdraw('MATIC', 1_100_000)));
    const ids = ws.map((w) => w.id);
    await pollUntil(
      'five withdrawals settled by three instances',
      async () => {
        await Promise.all(kits.map((k) => k.rounds.runOnce()));
        return (await db.query<{ state: string }>('SELECT state FROM withdrawals WHERE id = ANY($1::int[])', [ids])).rows;
      },
      (rows) => rows.every((r) => r.state === 'settled'),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    for (const w of ws) {
      expect(await transferLogs(kit.settings.MATIC.rpcUrl, kit.settings.MATIC.token, { to: w.address })).toHaveLength(1);
      expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled']);
    }
    // Each signed once (no instance signed a withdrawal another had signed), and the five nonces are
    // consecutive: a nonce skipped by a race would leave a gap the chain never fills, every later payout
    // of the wallet stuck behind it. (Distinct nonces alone the unique index guarantees.)
    for (const id of ids) expect(await versions(id)).toHaveLength(1);
    const nonces = (await Promise.all(ids.map(async (id) => BigInt((await row(id)).nonce ?? -1)))).sort((a, b) => (a < b ? -1 : 1));
    expect(nonces.map((n) => n - nonces[0])).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it('a crash between signing and broadcasting re-broadcasts the stored bytes: the mined hash is the one signed first', async () => {
    const w = await withdraw('ETH', 1_200_000);
    // The signing round alone (its commit), then "the process dies": nothing was broadcast.
    await kit.rounds['sign'].execute(eth);
    const [signed] = await versions(w.id);
    expect(signed).toBeDefined();
    expect(await kit.rails.ETH.knows(signed.tx_hash as `0x${string}`)).toBe(false);
    // A new instance starts and goes on.
    await payoutKit(config, db).until([w.id], ['settled']);
    expect((await row(w.id)).tx_hash).toBe(signed.tx_hash);
    expect(await versions(w.id)).toHaveLength(1);
    expect(await transferLogs(eth.rpcUrl, eth.token, { to: w.address })).toHaveLength(1);
  });

  it('waits while the hot wallet lacks USDT, in order, and pays once it is refilled', async () => {
    const admin = tokenAdmin(eth.rpcUrl, eth.token);
    const left = await tokenBalance(eth.rpcUrl, eth.token, kit.signer.address);
    await admin.drain(kit.signer.address);
    try {
      const first = await withdraw('ETH', 3_000_000);
      const second = await withdraw('ETH', 1_000_000);
      for (let i = 0; i < 5; i++) await kit.rounds.runOnce();
      expect([(await row(first.id)).state, (await row(second.id)).state]).toEqual(['created', 'created']);
      expect((await row(first.id)).nonce).toBeNull();
      expect(await kit.metrics.waiting.get()).toMatchObject({
        values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'ETH', reason: 'usdt_short' }, value: 1 })]),
      });
      await admin.issueTo(kit.signer.address, left);
      await kit.until([first.id, second.id], ['settled']);
      // In the order they were asked: the first holds the lower nonce.
      expect(BigInt((await row(first.id)).nonce ?? -1)).toBeLessThan(BigInt((await row(second.id)).nonce ?? -1));
      expect(await tokenBalance(eth.rpcUrl, eth.token, first.address)).toBe(3_000_000n);
    } finally {
      if ((await tokenBalance(eth.rpcUrl, eth.token, kit.signer.address)) < left) await admin.issueTo(kit.signer.address, left);
    }
  });

  it('a round told to stop after signing keeps what it signed, broadcasts nothing, and the next round sends it', async () => {
    const w = await withdraw('MATIC', 1_100_000);
    const stopping = new AbortController();
    const sign = kit.sign.execute.bind(kit.sign);
    // The process is told to stop (SIGTERM) while this round signs.
    const signing = jest.spyOn(kit.sign, 'execute').mockImplementation(async (s) => {
      const out = await sign(s);
      if (out.signed.some((x) => x.withdrawal.id === w.id)) stopping.abort();
      return out;
    });
    try {
      await pollUntil(
        'the withdrawal signed by a round that was then told to stop',
        async () => (await kit.rounds.runOnce(stopping.signal), stopping.signal.aborted),
        (aborted) => aborted,
      );
    } finally {
      signing.mockRestore();
    }
    const [signed] = await versions(w.id);
    expect([(await row(w.id)).payout_state, (await row(w.id)).state]).toEqual(['signed', 'created']);
    expect(await kit.rails.MATIC.knows(signed.tx_hash as `0x${string}`)).toBe(false);
    // The next round (this process's or its successor's) broadcasts the stored bytes: one transfer, no new signature.
    await kit.until([w.id], ['settled']);
    expect((await versions(w.id)).map((v) => v.tx_hash)).toEqual([signed.tx_hash]);
    expect(await transferLogs(kit.settings.MATIC.rpcUrl, kit.settings.MATIC.token, { to: w.address })).toEqual([
      expect.objectContaining({ value: 1_100_000n, txHash: signed.tx_hash }),
    ]);
  });

  it('replaces a transaction not mined within the bound: same nonce, both fees raised 10 % or more; one transfer mined', async () => {
    const quick = payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, CHAIN_REPLACE_AFTER_MS_ETH: '1000' }), db);
    await setMining(eth.rpcUrl, { auto: false, intervalMs: 0 });
    let w: Awaited<ReturnType<typeof withdraw>>;
    try {
      w = await withdraw('ETH', 1_300_000);
      await pollUntil(
        'the first version accepted',
        async () => (await quick.rounds.runOnce(), (await row(w.id)).state),
        (s) => s === 'sent',
      );
      await pollUntil(
        'a replacement signed and accepted',
        async () => (await quick.rounds.runOnce(), await versions(w.id)),
        (v) => v.length >= 2,
        { timeoutMs: 15_000, intervalMs: 200 },
      );
    } finally {
      await setMining(eth.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await quick.until([w.id], ['settled']);
    const all = await versions(w.id);
    expect(new Set(all.map((v) => v.nonce)).size).toBe(1);
    expect(BigInt(all[1].max_fee_per_gas_wei) * 10n).toBeGreaterThanOrEqual(BigInt(all[0].max_fee_per_gas_wei) * 11n);
    // No block was made until the replacement was accepted, and the node keeps one transaction a nonce, the
    // higher-fee one: the mined transfer is the replacement, never the first version.
    const mined = (await row(w.id)).tx_hash;
    expect(mined).toBe(all[all.length - 1].tx_hash);
    expect(mined).not.toBe(all[0].tx_hash);
    expect(await transferLogs(eth.rpcUrl, eth.token, { to: w.address })).toEqual([
      expect.objectContaining({ value: 1_300_000n, txHash: mined }),
    ]);
  });

  it('broadcasts again the very bytes a node dropped from its mempool; one transfer mined, no second signature', async () => {
    // The round asks whether the node still knows it after half the replacement bound: 4 s here, replaced after 8 s.
    const quick = payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, CHAIN_REPLACE_AFTER_MS_ETH: '8000' }), db);
    await setMining(eth.rpcUrl, { auto: false, intervalMs: 0 });
    let w: Awaited<ReturnType<typeof withdraw>>;
    let signed: { tx_hash: string };
    try {
      w = await withdraw('ETH', 1_400_000);
      await pollUntil(
        'accepted by the node',
        async () => (await quick.rounds.runOnce(), (await row(w.id)).state),
        (s) => s === 'sent',
      );
      [signed] = await versions(w.id);
      await dropTransaction(eth.rpcUrl, signed.tx_hash as `0x${string}`);
      expect(await kit.rails.ETH.knows(signed.tx_hash as `0x${string}`)).toBe(false);
      await pollUntil(
        'the dropped transaction known to the node again',
        async () => (await quick.rounds.runOnce(), await kit.rails.ETH.knows(signed.tx_hash as `0x${string}`)),
        (known) => known,
        { timeoutMs: 7_000, intervalMs: 250 },
      );
    } finally {
      await setMining(eth.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await quick.until([w.id], ['settled']);
    expect(await versions(w.id)).toHaveLength(1);
    expect((await row(w.id)).tx_hash).toBe(signed.tx_hash);
    expect(await transferLogs(eth.rpcUrl, eth.token, { to: w.address })).toEqual([
      expect.objectContaining({ value: 1_400_000n, txHash: signed.tx_hash }),
    ]);
  });

  it('a node that does not answer makes withdrawals wait, with no error; they go on when it is back', async () => {
    const down = payoutKit(
      loadConfig(WithdrawalsConfig, { ...process.env, CHAIN_RPC_URL_MATIC: 'http://127.0.0.1:1', CHAIN_RPC_TIMEOUT_MS: '500' }),
      db,
    );
    const w = await withdraw('MATIC', 1_400_000);
    await expect(down.rounds.runOnce()).resolves.toBeUndefined();
    expect((await row(w.id)).state).toBe('created');
    expect(await down.metrics.waiting.get()).toMatchObject({
      values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'MATIC', reason: 'node' }, value: 1 })]),
    });
    await kit.until([w.id], ['settled']);
  });

  it('refuses to start on a node of another chain or a token that is not 6-decimal USDT, naming the setting', async () => {
    const wrongChain = payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, CHAIN_ID_ETH: '1' }), db);
    await expect(wrongChain.rounds.checkChains()).rejects.toThrow(ChainMismatchError);
    await expect(wrongChain.rounds.checkChains()).rejects.toThrow(/CHAIN_ID_ETH is 1 but the node at CHAIN_RPC_URL_ETH serves chain/);
    const notAToken = payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, USDT_CONTRACT_MATIC: kit.signer.address }), db);
    await expect(notAToken.rounds.checkChains()).rejects.toThrow(/USDT_CONTRACT_MATIC/);
  });

  it('reconciliation matches settled payouts with their receipts and records a mismatch once, never mending it', async () => {
    const w = await withdraw('MATIC', 1_500_000);
    await kit.until([w.id], ['settled']);
    const first = await kit.reconcile.execute();
    expect(first.networks.every((n) => n.error === null)).toBe(true);
    expect((await db.query('SELECT reconciled_at FROM withdrawals WHERE id = $1', [w.id])).rows[0].reconciled_at).not.toBeNull();
    // The books now say another destination than the chain paid: a finding, once.
    await db.query('UPDATE withdrawals SET address = $2, reconciled_at = NULL WHERE id = $1', [w.id, freshAddress()]);
    const second = await kit.reconcile.execute();
    expect(second.new_findings).toBeGreaterThanOrEqual(1);
    const { rows } = await db.query<{ kind: string }>('SELECT kind FROM reconciliation_findings WHERE withdrawal_id = $1', [w.id]);
    expect(rows).toEqual([{ kind: 'transfer_mismatch' }]);
    await db.query('UPDATE withdrawals SET reconciled_at = NULL WHERE id = $1', [w.id]);
    await kit.reconcile.execute();
    expect((await db.query('SELECT count(*)::int AS n FROM reconciliation_findings WHERE withdrawal_id = $1', [w.id])).rows[0].n).toBe(1);
    await db.query('UPDATE withdrawals SET address = $2 WHERE id = $1', [w.id, w.address]);
  });
});

describe('settlement trusts no single unchecked answer (issue #48)', () => {
  const matic = kit.settings.MATIC;
  const through = (env: Record<string, string>) => payoutKit(loadConfig(WithdrawalsConfig, { ...process.env, ...env }), db);
  let node: Awaited<ReturnType<typeof lyingNode>>;
  beforeEach(async () => {
    node = await lyingNode(matic.rpcUrl);
  });
  afterEach(() => node.close());

  const findingKinds = async (id: number) =>
    (await db.query<{ kind: string }>('SELECT kind FROM reconciliation_findings WHERE withdrawal_id = $1 ORDER BY id', [id])).rows.map(
      (r) => r.kind,
    );
  const counted = async (k: ReturnType<typeof payoutKit>, kind: string) =>
    (await k.metrics.mismatches.get()).values.find((v) => v.labels.network === 'MATIC' && v.labels.kind === kind)?.value ?? 0;

  /**
   * Runs rounds of `k` until the payout's true block (as the node itself tells it) is final with a block to
   * spare: whatever `k` was going to make of it, it has by then.
   */
  async function roundsPastFinality(k: ReturnType<typeof payoutKit>, id: number) {
    await pollUntil(
      `withdrawal ${id}'s block final by a margin`,
      async () => {
        await k.rounds.runOnce();
        const hash = (await row(id)).tx_hash as `0x${string}` | null;
        const mined = hash ? await kit.rails.MATIC.receipt(hash) : null;
        return mined !== null && (await kit.rails.MATIC.finalBlock()) > mined.blockNumber + 1n;
      },
      (done) => done,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    await k.rounds.runOnce();
    return row(id);
  }

  it.each([
    ['a status-1 receipt without exactly its Transfer', oneMicroMore, 'CHAIN_RPC_URL_MATIC', 'transfer_mismatch_at_settlement'],
    ['a status-0 receipt that moved USDT (no refund of a paid withdrawal)', reverted, 'CHAIN_RPC_URL_MATIC', 'usdt_moved_at_failure'],
    ['a second node that tells another receipt than the first', reverted, 'CHAIN_RPC_URL_2_MATIC', 'nodes_disagree'],
  ] as const)(
    '%s: neither settled nor failed, a finding; the hold stays until the nodes tell the truth',
    async (_, lie, setting, kind) => {
      const w = await withdraw('MATIC', 1_600_000);
      node.lie(aboutReceiptsTo(w.address, lie));
      const k = through({ [setting]: node.url });
      expect((await roundsPastFinality(k, w.id)).state).toBe('sent');
      expect(await findingKinds(w.id)).toEqual([kind]);
      expect(await counted(k, kind)).toBe(1);
      expect((await accounts.find(w.partnerId, w.document))?.heldMicros).toBeGreaterThanOrEqual(1_600_000n);
      expect(await eventStates(w.id)).toEqual(['created', 'sent']);
      node.lie();
      await k.until([w.id], ['settled', 'failed']);
      expect((await row(w.id)).state).toBe('settled');
      expect((await accounts.find(w.partnerId, w.document))?.heldMicros).toBe(0n);
    },
    90_000,
  );

  it('a reorg before finality (evm_snapshot, evm_revert, other blocks): not settled on the dropped block, paid once after', async () => {
    const chain = createTestClient({ mode: 'hardhat', transport: http(matic.rpcUrl) });
    // Nothing final while the fork is played: the block is recorded, not settled.
    const slow = through({ CHAIN_FINALITY_MATIC: '1000' });
    const w = await withdraw('MATIC', 2_300_000);
    let dropped: { tx_hash: string; block_hash: string | null };
    await setMining(matic.rpcUrl, { auto: false, intervalMs: 0 });
    try {
      await pollUntil(
        'accepted by the node',
        async () => (await slow.rounds.runOnce(), (await row(w.id)).state),
        (s) => s === 'sent',
      );
      const snapshot = await chain.snapshot();
      await mineBlock(matic.rpcUrl);
      dropped = await pollUntil(
        'its block recorded',
        async () => (await slow.rounds.runOnce(), await row(w.id)),
        (r) => r.block_hash !== null,
      );
      await chain.revert({ id: snapshot });
      // The fork that wins holds other blocks at that height; the payout is out of every block and mempool.
      await chain.dropTransaction({ hash: dropped.tx_hash as `0x${string}` });
      await mineBlock(matic.rpcUrl);
      await mineBlock(matic.rpcUrl);
      expect(await kit.rails.MATIC.receipt(dropped.tx_hash as `0x${string}`)).toBeNull();
    } finally {
      await setMining(matic.rpcUrl, { auto: false, intervalMs: 250 });
    }
    await pollUntil(
      'the dropped block forgotten',
      async () => (await slow.rounds.runOnce(), await row(w.id)),
      (r) => r.block_hash === null,
    );
    expect((await slow.metrics.reorgs.get()).values.find((v) => v.labels.network === 'MATIC')?.value).toBeGreaterThanOrEqual(1);
    await kit.until([w.id], ['settled', 'failed']);
    const settled = await row(w.id);
    expect(settled.state).toBe('settled');
    expect(settled.block_hash).not.toBe(dropped.block_hash);
    expect(await transferLogs(matic.rpcUrl, matic.token, { to: w.address })).toEqual([expect.objectContaining({ value: 2_300_000n })]);
    expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled']);
  }, 90_000);

  it("a receipt from a block that is not the node's block at that height (a reorg under way) is not mined; paid once after", async () => {
    const w = await withdraw('MATIC', 1_800_000);
    node.lie(aboutReceiptsTo(w.address, onAnotherFork));
    const k = through({ CHAIN_RPC_URL_MATIC: node.url });
    const waiting = await roundsPastFinality(k, w.id);
    expect(waiting.state).toBe('sent');
    expect(waiting.block_number).toBeNull();
    node.lie();
    await k.until([w.id], ['settled', 'failed']);
    const settled = (
      await db.query<{ state: string; tx_hash: `0x${string}`; block_hash: string }>('SELECT * FROM withdrawals WHERE id = $1', [w.id])
    ).rows[0];
    // Settled in the block the node itself holds at that height, not the other fork's.
    expect(settled).toMatchObject({ state: 'settled', block_hash: (await kit.rails.MATIC.receipt(settled.tx_hash))?.blockHash });
    expect(await transferLogs(matic.rpcUrl, matic.token, { to: w.address })).toEqual([expect.objectContaining({ value: 1_800_000n })]);
    expect(await findingKinds(w.id)).toEqual([]);
  }, 90_000);

  it("with CHAIN_FINALITY=finalized settles only once the node's finalized block reaches the receipt's", async () => {
    const held = await createPublicClient({ transport: http(matic.rpcUrl) }).getBlockNumber();
    // The node's finalized tag held back where it was when the spec began.
    node.lie((method, params, result) =>
      method === 'eth_getBlockByNumber' && params[0] === 'finalized' ? { ...(result as object), number: `0x${held.toString(16)}` } : result,
    );
    const k = through({ CHAIN_RPC_URL_MATIC: node.url, CHAIN_FINALITY_MATIC: 'finalized' });
    const w = await withdraw('MATIC', 1_900_000);
    const mined = await roundsPastFinality(k, w.id);
    expect(mined.state).toBe('sent');
    expect(BigInt(mined.block_number ?? -1)).toBeGreaterThan(held);
    node.lie();
    await k.until([w.id], ['settled']);
    expect(await eventStates(w.id)).toEqual(['created', 'sent', 'settled']);
  }, 90_000);

  it.each([
    ['syncing', { method: 'eth_syncing', result: { startingBlock: '0x0', currentBlock: '0x1', highestBlock: '0xffff' } }],
    ['behind (its newest block an hour old)', { method: 'eth_getBlockByNumber', result: 'an hour old' }],
  ] as const)(
    'a node that is %s is not asked: the round waits with the reason; it goes on once the node is fit',
    async (_, fault) => {
      node.lie((method, params, result) => {
        if (method !== fault.method) return result;
        if (fault.result !== 'an hour old') return fault.result;
        const hourAgo = Math.floor(Date.now() / 1000) - 3_600;
        return params[0] === 'latest' ? { ...(result as object), timestamp: `0x${hourAgo.toString(16)}` } : result;
      });
      const k = through({ CHAIN_RPC_URL_MATIC: node.url });
      const w = await withdraw('MATIC', 2_200_000);
      for (let i = 0; i < 5; i++) await k.rounds.runOnce();
      expect((await row(w.id)).state).toBe('created');
      expect(await k.metrics.waiting.get()).toMatchObject({
        values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'MATIC', reason: 'node' }, value: 1 })]),
      });
      expect(await k.metrics.rpcFailures.get()).toMatchObject({
        values: expect.arrayContaining([expect.objectContaining({ labels: { network: 'MATIC', reason: 'unfit' } })]),
      });
      node.lie();
      await k.until([w.id], ['settled']);
    },
    60_000,
  );
});
