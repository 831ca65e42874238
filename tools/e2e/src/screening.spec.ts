import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { ApiClient, newUuid, pollUntil, requireEnv, tokenAdmin, whilePayoutRoundHeld, withdrawalRequest } from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { operatorCli } from './support/operator-cli';
import { balanceOf, gatewayAdminUrl, listEvents, newPartner, newUser } from './support/sandbox';

// Screening of withdrawal destinations end to end (docs/operations/screening.md): the OFAC SDN copy, the token
// contract's blacklist on the local chain, the operator's deny list; refused at the request (422
// address_blocked, nothing held), and a withdrawal that waits when its address is listed fails, never signed.

type Address = `0x${string}`;
const USDT = 1_000_000;
const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
/** Tornado Cash's router, on the SDN list since August 2022 (in the copy the service ships with). */
const SDN_ADDRESS = '0x8589427373D6D84E98730D7795D8f6f8731FDA16';
const VENDORED_PUBLISHED_AT = 1727397317;

interface ScreeningList {
  list: string;
  source: string;
  published_at: number | null;
  loaded_by: string | null;
  addresses: number | null;
}
interface Withdrawal {
  state: string;
  failure_reason: string | null;
  tx_hash: string | null;
}

let db: Pool;
beforeAll(() => {
  db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2 });
});
afterAll(() => db.end());

async function fundedUser(micros = 10 * USDT) {
  const partner = await newPartner('screening');
  const document = await newUser(partner.api, micros);
  return { ...partner, document };
}

const sdnList = async (): Promise<ScreeningList> => {
  const res = await operator().get<{ provider: string; lists: ScreeningList[] }>('/admin/v1/screening');
  expect(res.status).toBe(200);
  expect(res.body.provider).toBe('lists');
  expect(res.body.lists.map((l) => l.list)).toEqual(['ofac_sdn', 'token_blacklist', 'deny_list']);
  return res.body.lists[0];
};

describe('screening of withdrawal destinations', () => {
  it('refuses a withdrawal to an address of the SDN copy in use (422 address_blocked naming the list); nothing is held', async () => {
    const sdn = await sdnList();
    expect(sdn.published_at).toBeGreaterThanOrEqual(VENDORED_PUBLISHED_AT);
    expect(sdn.addresses).toBeGreaterThanOrEqual(156);
    const { api, document } = await fundedUser();
    const res = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address: SDN_ADDRESS }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'address_blocked',
      field: 'address',
      message: expect.stringMatching(
        /^address 0x8589427373d6d84e98730d7795d8f6f8731fda16 is on the OFAC SDN list \(the copy published \d{4}-\d{2}-\d{2}\)/,
      ),
      request_id: expect.any(String),
    });
    expect(await balanceOf(api, document)).toBe(10 * USDT);
    expect((await api.get<{ withdrawals: unknown[] }>(`/partner/v1/withdrawals/usdt?document=${document}`)).body.withdrawals).toEqual([]);
  });

  it('refuses an address the token contract blacklists on that network, read from the node', async () => {
    const address = freshAddress();
    await tokenAdmin(requireEnv('CHAIN_RPC_URL_ETH'), requireEnv('USDT_CONTRACT_ETH') as Address).blacklist(address);
    const { api, document } = await fundedUser();
    const refused = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address, network: 'ETH' }));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 422,
      body: {
        error: 'address_blocked',
        field: 'address',
        message: `address ${address.toLowerCase()} is blacklisted by the USDT contract on ETH (isBlackListed): withdrawals to it are refused`,
        request_id: expect.any(String),
      },
    });
    // The other network's token does not list it: paid there.
    expect((await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address, network: 'MATIC' }))).status).toBe(201);
  });

  it('the deny list: added (201, then 200 unchanged), refused while listed, accepted again once lifted', async () => {
    const address = freshAddress();
    const added = await operator().post('/admin/v1/screening/deny-list', { address, note: 'phishing report' });
    expect({ status: added.status, body: added.body }).toMatchObject({
      status: 201,
      body: {
        address: address.toLowerCase(),
        note: 'phishing report',
        created: true,
        failed_withdrawals: [],
        added_at: expect.any(Number),
      },
    });
    const again = await operator().post('/admin/v1/screening/deny-list', { address: address.toLowerCase(), note: 'again' });
    expect({ status: again.status, note: again.body.note, created: again.body.created }).toEqual({
      status: 200,
      note: 'phishing report',
      created: false,
    });

    const { api, document } = await fundedUser();
    const refused = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address }));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 422,
      body: {
        error: 'address_blocked',
        field: 'address',
        message: `address ${address.toLowerCase()} is on the operator's deny list: withdrawals to it are refused`,
        request_id: expect.any(String),
      },
    });
    const listed = await operator().get<{ entries: { address: string }[] }>(`/admin/v1/screening/deny-list?limit=1000`);
    expect(listed.body.entries.map((e) => e.address)).toContain(address.toLowerCase());

    const lifted = await operator().request('DELETE', `/admin/v1/screening/deny-list/${address}`);
    expect({ status: lifted.status, address: lifted.body.address }).toEqual({ status: 200, address: address.toLowerCase() });
    expect((await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address }))).status).toBe(201);
    const gone = await operator().request('DELETE', `/admin/v1/screening/deny-list/${address}`);
    expect({ status: gone.status, error: gone.body.error }).toEqual({ status: 404, error: 'not_found' });
  });

  it('refuses a malformed deny-list entry with invalid_request naming the field', async () => {
    const res = await operator().post('/admin/v1/screening/deny-list', { address: '0x1234', note: 'x' });
    expect({ status: res.status, error: res.body.error, field: res.body.field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'address',
    });
    const noNote = await operator().post('/admin/v1/screening/deny-list', { address: freshAddress() });
    expect({ status: noNote.status, field: noNote.body.field }).toEqual({ status: 400, field: 'note' });
  });

  it('a withdrawal waiting for its payout when its address is denied fails address_blocked, never signed, its hold released', async () => {
    const address = freshAddress();
    const { api, document } = await fundedUser();
    const failed = await whilePayoutRoundHeld(db, 'MATIC', async () => {
      const created = await api.post<{ id: number }>(
        '/partner/v1/withdrawals/usdt',
        withdrawalRequest(document, { address, usdtmicros: 2 * USDT }),
      );
      expect(created.status).toBe(201);
      const denied = await operator().post<{ failed_withdrawals: number[] }>('/admin/v1/screening/deny-list', {
        address,
        note: 'listed while waiting',
      });
      expect(denied.body.failed_withdrawals).toEqual([created.body.id]);
      return created.body.id;
    });
    const read = await api.get<Withdrawal>(`/partner/v1/withdrawals/usdt/${failed}`);
    expect(read.body).toMatchObject({ state: 'failed', failure_reason: 'address_blocked', tx_hash: null });
    expect(await balanceOf(api, document)).toBe(10 * USDT);
    const events = await pollUntil(
      'the failed event in the feed',
      () => listEvents(api),
      (found) => found.some((e) => e.type === 'usdt_withdrawal' && e.resource_id === String(failed) && e.state === 'failed'),
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const mine = events.filter((e) => e.type === 'usdt_withdrawal' && e.resource_id === String(failed));
    expect(mine.map((e) => [e.state, e.data.failure_reason ?? null])).toEqual([
      ['created', null],
      ['failed', 'address_blocked'],
    ]);
  });

  it('`npm run cli -- screening update` loads a newer SDN copy; its addresses are refused and an older copy is refused', async () => {
    const vendored = [
      ...readFileSync(join(__dirname, '../../../apps/withdrawals/src/screening/ofac-sdn-copy.ts'), 'utf8').matchAll(/'(0x[0-9a-f]{40})'/g),
    ].map((m) => m[1]);
    expect(vendored.length).toBe(156);
    const newlyListed = freshAddress();
    const dir = mkdtempSync(join(tmpdir(), 'sdn-'));
    const file = join(dir, 'sanctioned_addresses_ETH.txt');
    writeFileSync(file, `# test copy\n${[...vendored, newlyListed].join('\n')}\n`);
    const cli = (...args: string[]) =>
      operatorCli('screening', ...args, '--operator', gatewayAdminUrl(), '--admin-key', requireEnv('ADMIN_API_KEY'));
    try {
      // Now (not today's date): a copy loaded earlier today (the integration specs') must be older than this one.
      const now = new Date().toISOString();
      const loaded = await cli('update', file, '--published-at', now, '--source', `e2e copy ${newUuid().slice(0, 8)}`);
      expect({ code: loaded.code, out: loaded.out }).toMatchObject({ code: 0, out: expect.stringMatching(/^200 /) });
      const sdn = await sdnList();
      expect(sdn).toMatchObject({
        published_at: Math.floor(Date.parse(now) / 1000),
        addresses: 157,
        loaded_by: expect.stringContaining('('),
      });
      const older = await cli('update', file, '--published-at', '2024-01-01');
      expect({ code: older.code, out: older.out }).toMatchObject({ code: 1, out: expect.stringContaining('409') });

      const { api, document } = await fundedUser();
      const res = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address: newlyListed }));
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 422, error: 'address_blocked' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
