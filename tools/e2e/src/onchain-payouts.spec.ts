import { Pool } from 'pg';
import {
  ApiClient,
  FAILING_ADDRESS,
  newUuid,
  outsideTransfer,
  pollUntil,
  requireEnv,
  setMining,
  tokenAdmin,
  tokenBalance,
  transferLogs,
  whilePayoutRoundHeld,
} from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { balanceOf, gatewayAdminUrl, newPartner, newUser } from './support/sandbox';

// Real payouts end to end: withdrawals through the partner API, paid by the withdrawals service to the
// local EVM nodes npm test starts (a Hardhat node per network, the USDT-like token, a funded hot wallet).
// What arrived is asked of the chain itself, never of the service.

type Network = 'ETH' | 'MATIC';
type Address = `0x${string}`;
const USDT = 1_000_000;
const chain = (network: Network) => ({
  rpcUrl: requireEnv(`CHAIN_RPC_URL_${network}`),
  token: requireEnv(`USDT_CONTRACT_${network}`) as Address,
});
const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

interface HotWallet {
  network: Network;
  chain_id: number;
  address: Address;
  token_contract: string;
  usdt_micros: number | null;
  native_wei: string | null;
  pending: number;
  next_nonce: number;
  state: 'active' | 'waiting' | 'stopped' | 'retired';
  reason: string | null;
  stopped_by: number | null;
  stopped_reason: string | null;
}

interface Finding {
  id: number;
  network: Network;
  kind: string;
  subject: string;
  detail: string;
  status: 'open' | 'acknowledged' | 'resolved';
  acknowledged_by: string | null;
  resolved_by: string | null;
  note: string | null;
}

const findingsOf = async (status: string): Promise<Finding[]> => {
  const res = await operator().get<{ findings: Finding[] }>(`/admin/v1/reconciliation/findings?status=${status}`);
  if (res.status !== 200) throw new Error(`findings: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.findings;
};

async function hotWallet(network: Network): Promise<HotWallet> {
  const res = await operator().get<{ hot_wallets: HotWallet[] }>('/admin/v1/hot-wallets');
  if (res.status !== 200) throw new Error(`hot wallets: ${res.status} ${JSON.stringify(res.body)}`);
  const wallet = res.body.hot_wallets.find((w) => w.network === network);
  if (!wallet) throw new Error(`no hot wallet for ${network}`);
  return wallet;
}

interface PayoutView {
  withdrawal_id: number;
  network: Network;
  state: string;
  payout_state: string;
  reason: string | null;
  from_address: string | null;
  nonce: number | null;
  tx_hash: string | null;
}

interface Event {
  id: string;
  type: string;
  state: string;
  resource_id: string;
  data: { tx_hash: string | null; block_number: number | null; network: string; failure_reason: string | null };
}

/** The withdrawal's events in the partner's feed, once it reached `final` (polled with a deadline). */
async function eventsUntil(api: ApiClient, id: number, final: string[], timeoutMs = 60_000): Promise<Event[]> {
  return pollUntil(
    `withdrawal ${id} to reach ${final.join(' or ')} in the feed`,
    async () =>
      (await api.get<{ events: Event[] }>('/partner/v1/events?type=usdt_withdrawal&limit=1000')).body.events.filter(
        (e) => e.resource_id === String(id),
      ),
    (events) => events.some((e) => final.includes(e.state)),
    { timeoutMs, intervalMs: 200 },
  );
}

async function withdraw(api: ApiClient, document: string, body: Record<string, unknown>) {
  const request = {
    document,
    idempotency_key: newUuid(),
    usdtmicros: USDT,
    fee_choice: 'MEDIUM',
    network: 'MATIC',
    address: freshAddress(),
    ...body,
  };
  const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', request);
  if (res.status !== 201) throw new Error(`withdrawal refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, request };
}

let db: Pool;
beforeAll(() => {
  db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2 });
});
afterAll(() => db.end());

describe('USDT payouts on the local chains', () => {
  it.each(['ETH', 'MATIC'] as const)(
    'a withdrawal on %s ends settled and the destination holds the amount, read from the node',
    async (network) => {
      const { api } = await newPartner();
      const document = await newUser(api, 20 * USDT);
      const { id, request } = await withdraw(api, document, { network, usdtmicros: 2_345_678, fee_choice: 'LOW' });
      const events = await eventsUntil(api, id, ['settled', 'failed']);
      expect(events.map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
      const { rpcUrl, token } = chain(network);
      expect(await tokenBalance(rpcUrl, token, request.address)).toBe(2_345_678n);
      const [log] = await transferLogs(rpcUrl, token, { to: request.address });
      const settled = events[2].data;
      // The event carries where it was paid: network, the mined hash, its block.
      expect(settled).toMatchObject({ network, tx_hash: log.txHash, block_number: Number(log.blockNumber) });
      expect(log.from).toBe((await hotWallet(network)).address);
      const read = await api.get<{ state: string; tx_hash: string; block_number: number }>(`/partner/v1/withdrawals/usdt/${id}`);
      expect(read.body).toMatchObject({ state: 'settled', tx_hash: log.txHash, block_number: Number(log.blockNumber) });

      // The same request again pays nothing more: the same id, and one transfer on chain.
      const replay = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', request);
      expect({ status: replay.status, body: replay.body }).toEqual({ status: 200, body: { id } });
      expect(await tokenBalance(rpcUrl, token, request.address)).toBe(2_345_678n);
      expect(await transferLogs(rpcUrl, token, { to: request.address })).toHaveLength(1);
    },
  );

  it('a destination the token refuses fails before signing (destination_refused): the hold released, nothing sent', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const { id } = await withdraw(api, document, { address: FAILING_ADDRESS, network: 'MATIC' });
    const events = await eventsUntil(api, id, ['settled', 'failed']);
    expect(events.map((e) => e.state)).toEqual(['created', 'failed']);
    expect(events[1].data).toMatchObject({ failure_reason: 'destination_refused', tx_hash: null, block_number: null });
    expect(await balanceOf(api, document)).toBe(10 * USDT);
  });

  it('an empty hot wallet makes withdrawals wait in created; a refill pays them', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 50 * USDT);
    const wallet = await hotWallet('ETH');
    const { rpcUrl, token } = chain('ETH');
    const admin = tokenAdmin(rpcUrl, token);
    const funds = await tokenBalance(rpcUrl, token, wallet.address);
    await admin.drain(wallet.address);
    try {
      const { id, request } = await withdraw(api, document, { network: 'ETH', usdtmicros: 3 * USDT });
      // It waits: still created after several payout rounds, and the operator sees it pending on an empty wallet.
      await pollUntil(
        'the operator to see the empty wallet and the withdrawal pending',
        () => hotWallet('ETH'),
        (w) => w.usdt_micros === 0 && w.pending >= 1,
      );
      const waiting = await api.get<{ state: string }>(`/partner/v1/withdrawals/usdt/${id}`);
      expect(waiting.body.state).toBe('created');
      await admin.issueTo(wallet.address, funds);
      const events = await eventsUntil(api, id, ['settled', 'failed']);
      expect(events.map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
      expect(await tokenBalance(rpcUrl, token, request.address)).toBe(BigInt(3 * USDT));
    } finally {
      if ((await tokenBalance(rpcUrl, token, wallet.address)) === 0n) await admin.issueTo(wallet.address, funds);
    }
  });

  it('a transaction not mined in time is replaced (same nonce, higher fees); the replacement is the one paid', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const { rpcUrl, token } = chain('MATIC');
    // No blocks: the first version stays in the mempool past the replacement bound (npm test: 4 s).
    await setMining(rpcUrl, { auto: false, intervalMs: 0 });
    let id: number;
    let address: Address;
    try {
      ({
        id,
        request: { address },
      } = (await withdraw(api, document, { network: 'MATIC' })) as { id: number; request: { address: Address } });
      await pollUntil(
        'a replacement signed',
        async () =>
          (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM withdrawals.payout_transactions WHERE withdrawal_id = $1', [id]))
            .rows[0].n,
        (n) => n >= 2,
        { timeoutMs: 30_000, intervalMs: 250 },
      );
    } finally {
      await setMining(rpcUrl, { auto: false, intervalMs: 250 });
    }
    const events = await eventsUntil(api, id, ['settled', 'failed']);
    expect(events.map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
    const [sent, settled] = [events[1].data.tx_hash, events[2].data.tx_hash];
    expect(settled).not.toBe(sent);
    const logs = await transferLogs(rpcUrl, token, { to: address });
    expect(logs).toEqual([expect.objectContaining({ txHash: settled, value: BigInt(USDT) })]);
  });

  it("the operator reads the hot wallets, the gas each settlement spent in the user's ledger, and reconciles", async () => {
    const { id: partnerId, api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const { id } = await withdraw(api, document, { network: 'MATIC' });
    await eventsUntil(api, id, ['settled']);
    const wallets = await operator().get<{ hot_wallets: HotWallet[] }>('/admin/v1/hot-wallets');
    expect(wallets.status).toBe(200);
    // The stack's own wallet (one a network); wallets other specs registered in this database are listed too,
    // retired: the books know them, their keys are not configured here.
    const known = wallets.body.hot_wallets.filter((w) => w.reason === 'key_not_configured');
    expect(known.every((w) => w.state === 'retired')).toBe(true);
    const configured = wallets.body.hot_wallets.filter((w) => w.reason !== 'key_not_configured');
    expect(configured.map((w) => [w.network, w.chain_id])).toEqual([
      ['ETH', Number(requireEnv('CHAIN_ID_ETH'))],
      ['MATIC', Number(requireEnv('CHAIN_ID_MATIC'))],
    ]);
    for (const w of configured) {
      expect(w).toEqual({
        network: w.network,
        chain_id: expect.any(Number),
        address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        token_contract: requireEnv(`USDT_CONTRACT_${w.network}`),
        usdt_micros: expect.any(Number),
        native_wei: expect.stringMatching(/^\d+$/),
        pending: expect.any(Number),
        in_flight: expect.any(Number),
        next_nonce: expect.any(Number),
        state: expect.stringMatching(/^(active|waiting|stopped|retired)$/),
        reason: w.state === 'waiting' || w.state === 'retired' ? expect.any(String) : null,
        waiting_since: w.state === 'waiting' ? expect.any(Number) : null,
        stopped_by: w.state === 'stopped' ? expect.any(Number) : null,
        stopped_reason: w.state === 'stopped' ? expect.any(String) : null,
      });
      expect(w.next_nonce).toBeGreaterThan(0);
    }
    const ledger = await operator().get<{
      entries: Array<{ type: string; withdrawal_id: number; gas_cost_wei: string | null; tx_hash: string | null }>;
    }>(`/admin/v1/partners/${partnerId}/users/${document}/ledger`);
    const settle = ledger.body.entries.find((e) => e.type === 'withdrawal_settle' && e.withdrawal_id === id);
    expect(settle?.gas_cost_wei).toMatch(/^[1-9]\d*$/);
    expect(settle?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const run = await operator().post<{ checked: number; matched: number; networks: Array<{ checked: number; error: string | null }> }>(
      '/admin/v1/reconciliation/runs',
      {},
    );
    expect(run.status).toBe(200);
    expect(run.body.networks.map((n) => n.error)).toEqual([null, null]);
    // The run (or the periodic one before it) checked this settlement against the chain and found it true:
    // checked, and no finding names it. A reconciliation that skipped it, or doubted an honest transfer, fails here.
    const { rows } = await db.query<{ reconciled: boolean }>(
      'SELECT reconciled_at IS NOT NULL AS reconciled FROM withdrawals.withdrawals WHERE id = $1',
      [id],
    );
    expect(rows).toEqual([{ reconciled: true }]);
    expect(run.body.networks.reduce((n, network) => n + network.checked, 0)).toBe(run.body.checked);
    const findings = await operator().get<{ findings: Array<Finding & { withdrawal_id: number | null }> }>(
      '/admin/v1/reconciliation/findings',
    );
    expect(findings.status).toBe(200);
    expect(findings.body.findings.filter((f) => f.withdrawal_id === id)).toEqual([]);
  });

  it('the operator routes need the operator key', async () => {
    const anonymous = new ApiClient(gatewayAdminUrl(), {});
    for (const [method, path] of [
      ['get', '/admin/v1/hot-wallets'],
      ['post', '/admin/v1/reconciliation/runs'],
      ['get', '/admin/v1/reconciliation/findings'],
      ['post', '/admin/v1/reconciliation/findings/1/acknowledge'],
      ['post', '/admin/v1/reconciliation/findings/1/resolve'],
      ['post', '/admin/v1/payouts/1/cancel'],
    ] as const) {
      const res = method === 'get' ? await anonymous.get(path) : await anonymous.post(path, {});
      expect(res.status).toBe(401);
    }
  });

  it('a transfer out of the hot wallet no withdrawal made: a finding the operator acknowledges and resolves; the wallet stops until its nonce_ahead is resolved', async () => {
    const wallet = await hotWallet('ETH');
    const { rpcUrl, token } = chain('ETH');
    const to = freshAddress();
    // Sent as the hot wallet while no payout round of ETH runs (it holds the round's lease): no nonce of ours is taken.
    const hash = await whilePayoutRoundHeld(db, 'ETH', () => outsideTransfer(rpcUrl, token, wallet.address, to, 777_000n));
    const found = await pollUntil(
      'the outside transfer reported',
      async () => {
        await operator().post('/admin/v1/reconciliation/runs', {});
        return (await findingsOf('open')).find((f) => f.kind === 'outside_transfer' && f.subject.startsWith(`transfer:${hash}:`));
      },
      (f) => f !== undefined,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(found?.detail).toContain(`moved 777000 USDT micros from ${wallet.address.toLowerCase()} to ${to.toLowerCase()}`);
    const id = found?.id ?? 0;
    // The wallet's nonce moved too: signing on ETH stops, and the hot wallet says why.
    const stopped = await pollUntil(
      'the ETH wallet stopped',
      () => hotWallet('ETH'),
      (w) => w.state === 'stopped',
    );
    expect(stopped.stopped_reason).toMatch(/never signed/);

    const ack = await operator().post<Finding>(`/admin/v1/reconciliation/findings/${id}/acknowledge`, { note: 'looking into it' });
    expect({ status: ack.status, body: ack.body }).toMatchObject({
      status: 200,
      body: { id, status: 'acknowledged', acknowledged_by: expect.any(String), note: 'looking into it' },
    });
    expect((await findingsOf('open')).map((f) => f.id)).not.toContain(id);
    expect((await findingsOf('acknowledged')).map((f) => f.id)).toContain(id);
    const again = await operator().post<{ error: string }>(`/admin/v1/reconciliation/findings/${id}/acknowledge`, { note: 'twice' });
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 409, error: 'invalid_transition' });
    const noNote = await operator().post<{ error: string }>(`/admin/v1/reconciliation/findings/${id}/resolve`, {});
    expect({ status: noNote.status, error: noNote.body.error }).toEqual({ status: 400, error: 'invalid_request' });
    const resolved = await operator().post<Finding>(`/admin/v1/reconciliation/findings/${id}/resolve`, {
      note: 'key rotated, funds written off',
    });
    expect({ status: resolved.status, body: resolved.body }).toMatchObject({
      status: 200,
      body: { status: 'resolved', resolved_by: expect.any(String), note: 'looking into it\nkey rotated, funds written off' },
    });
    const twice = await operator().post<{ error: string }>(`/admin/v1/reconciliation/findings/${id}/resolve`, { note: 'again' });
    expect({ status: twice.status, error: twice.body.error }).toEqual({ status: 409, error: 'invalid_transition' });
    const missing = await operator().post<{ error: string }>('/admin/v1/reconciliation/findings/2000000000/resolve', { note: 'x' });
    expect({ status: missing.status, error: missing.body.error }).toEqual({ status: 404, error: 'not_found' });
    expect((await operator().get('/admin/v1/reconciliation/findings?status=closed')).status).toBe(400);

    // The stop is lifted by resolving its nonce_ahead finding (after rotating the key, in production); ETH pays again.
    await pollUntil(
      'the ETH wallet signing again',
      async () => {
        const w = await hotWallet('ETH');
        if (w.stopped_by !== null)
          await operator().post(`/admin/v1/reconciliation/findings/${w.stopped_by}/resolve`, { note: 'spec: key rotated' });
        return hotWallet('ETH');
      },
      (w) => w.state === 'active',
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const { id: paid } = await withdraw(api, document, { network: 'ETH' });
    expect((await eventsUntil(api, paid, ['settled', 'failed'])).map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
  });

  it("the operator cancels a stuck payout's nonce: a 0-value self-transfer takes it, and the withdrawal is paid once with a new nonce", async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const { rpcUrl, token } = chain('MATIC');
    const wallets = (await operator().get<{ hot_wallets: HotWallet[] }>('/admin/v1/hot-wallets')).body.hot_wallets
      .filter((w) => w.network === 'MATIC')
      .map((w) => w.address.toLowerCase());
    const note = 'spec: the node keeps it in the mempool';
    const requestId = `cancel-${newUuid()}`;
    // No blocks: the transfer stays broadcast and unmined, as one the chain will never take would.
    await setMining(rpcUrl, { auto: false, intervalMs: 0 });
    let id: number;
    let address: Address;
    let stuck: PayoutView;
    try {
      ({
        id,
        request: { address },
      } = (await withdraw(api, document, { network: 'MATIC' })) as { id: number; request: { address: Address } });
      await pollUntil(
        'the transfer broadcast',
        async () => (await api.get<{ state: string }>(`/partner/v1/withdrawals/usdt/${id}`)).body.state,
        (state) => state === 'sent',
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      const asked = new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY'), 'x-request-id': requestId });
      const cancelled = await asked.post<PayoutView>(`/admin/v1/payouts/${id}/cancel`, { note });
      expect({ status: cancelled.status, body: cancelled.body }).toEqual({
        status: 200,
        body: {
          withdrawal_id: id,
          network: 'MATIC',
          state: 'sent',
          payout_state: 'cancelling',
          reason: expect.stringMatching(new RegExp(`: ${note}$`)),
          from_address: expect.any(String),
          nonce: expect.any(Number),
          tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        },
      });
      stuck = cancelled.body;
      expect(wallets).toContain(stuck.from_address);
      const twice = await operator().post<{ error: string }>(`/admin/v1/payouts/${id}/cancel`, { note: 'again' });
      expect({ status: twice.status, error: twice.body.error }).toEqual({ status: 409, error: 'invalid_transition' });
      await pollUntil(
        'the cancel signed',
        async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM withdrawals.payout_transactions WHERE withdrawal_id = $1 AND kind = 'cancel'`,
              [id],
            )
          ).rows[0].n,
        (n) => n >= 1,
        { timeoutMs: 30_000, intervalMs: 250 },
      );
    } finally {
      await setMining(rpcUrl, { auto: false, intervalMs: 250 });
    }
    // The cancel took the nonce: the withdrawal was paid again with another one; the partner saw it sent, then settled.
    const events = await eventsUntil(api, id, ['settled', 'failed']);
    expect(events.map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
    const settled = events[2].data.tx_hash;
    expect(settled).not.toBe(stuck.tx_hash);
    expect(await transferLogs(rpcUrl, token, { to: address })).toEqual([expect.objectContaining({ txHash: settled, value: BigInt(USDT) })]);
    const versions = await db.query<{ kind: string; nonce: string; tx_hash: string }>(
      'SELECT kind, nonce::text, tx_hash FROM withdrawals.payout_transactions WHERE withdrawal_id = $1 ORDER BY id',
      [id],
    );
    expect(versions.rows.filter((v) => v.kind === 'cancel').map((v) => Number(v.nonce))).toEqual([stuck.nonce]);
    expect(versions.rows.find((v) => v.tx_hash === settled)?.nonce).not.toBe(String(stuck.nonce));

    // Audited like every operator call; a settled one has nothing to cancel.
    const audit = await operator().get<{ entries: Array<{ request_id: string; method: string; route: string; status_code: number }> }>(
      '/admin/v1/audit-log?limit=200',
    );
    expect(audit.body.entries.find((e) => e.request_id === requestId)).toMatchObject({
      method: 'POST',
      route: '/admin/v1/payouts/:withdrawal_id/cancel',
      status_code: 200,
    });
    const done = await operator().post<{ error: string }>(`/admin/v1/payouts/${id}/cancel`, { note: 'too late' });
    expect({ status: done.status, error: done.body.error }).toEqual({ status: 409, error: 'invalid_transition' });
  });

  it('a cancel is refused for a withdrawal that does not exist, a malformed id and a missing or overlong note', async () => {
    const missing = await operator().post<{ error: string }>('/admin/v1/payouts/2000000000/cancel', { note: 'x' });
    expect({ status: missing.status, error: missing.body.error }).toEqual({ status: 404, error: 'not_found' });
    for (const [path, body, field] of [
      ['/admin/v1/payouts/abc/cancel', { note: 'x' }, 'withdrawal_id'],
      ['/admin/v1/payouts/0/cancel', { note: 'x' }, 'withdrawal_id'],
      ['/admin/v1/payouts/1/cancel', {}, 'note'],
      ['/admin/v1/payouts/1/cancel', { note: '' }, 'note'],
      ['/admin/v1/payouts/1/cancel', { note: 'x'.repeat(1001) }, 'note'],
    ] as const) {
      const res = await operator().post<{ error: string; field?: string }>(path, body);
      expect({ path, status: res.status, error: res.body.error, field: res.body.field }).toEqual({
        path,
        status: 400,
        error: 'invalid_request',
        field,
      });
    }
  });
});
