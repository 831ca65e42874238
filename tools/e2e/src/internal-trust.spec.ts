import { Pool } from 'pg';
import { Topics } from '@partner/contracts';
import { ApiClient, newUuid, pollUntil, requireEnv } from '@partner/testing';
import { operatorCli } from './support/operator-cli';
import { newPartner, newUser } from './support/sandbox';

// Internal trust (docs/adr/0017-internal-trust.md): the services' internal ports answer only the gateway's signed
// requests; operator keys created or revoked through the CLI are audited and their revocation broadcast to
// every running gateway; the sandbox Pix-in replays by idempotency key.

/** Where services answer direct queries on their internal port (docs/architecture.md: "Direct queries"). */
const DIRECT_QUERY_PATH = '/internal/v1/queries/';
/** How long the e2e stack's gateways trust an operator key from memory (scripts/test/run.ts sets it). */
const STACK_OPERATOR_KEY_CACHE_MS = 120_000;
const healthUrls = (): Record<string, string> => JSON.parse(requireEnv('SERVICE_HEALTH_URLS'));
// The operator ports of the two production gateways: a key the CLI makes is a production key (ADR 0019).
const gateways = (): string[] => requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
const db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2, options: '-c search_path=gateway' });
afterAll(() => db.end());

/** `npm run cli -- operator-key ...`, as an operator runs it: its own process, against the database only. */
async function cli(...args: string[]): Promise<string> {
  const { code, stdout, out } = await operatorCli('operator-key', ...args);
  if (code !== 0) throw new Error(`operator-key ${args.join(' ')}: exit ${code}\n${out}`);
  return stdout.trim();
}

const auditOf = async (keyId: string) =>
  (await db.query('SELECT method, route, key_id, status_code FROM audit_log WHERE key_id = $1 ORDER BY id', [keyId])).rows;
const withKey = (url: string, key: string) => new ApiClient(url, { 'x-admin-key': key });
/** The status of an operator call with `key` on every gateway instance. */
const statusesWith = async (key: string) =>
  Promise.all(gateways().map(async (url) => (await withKey(url, key).get('/admin/v1/audit-log?limit=1')).status));

describe('internal query ports', () => {
  it("refuse a query naming a partner that does not come signed by the gateway (401), and reveal nothing of the partner's data", async () => {
    const { api, id: partnerId } = await newPartner('internal trust victim');
    const document = await newUser(api, 0);
    const sent = await api.post<{ end_to_end_id: string }>('/sandbox/v1/pix-in', { document, amount_cents: 4_321 });
    expect(sent.status).toBe(202);
    // The partner itself sees its inflow through the gateway (which signs its queries).
    await pollUntil(
      'the inflow in the listing',
      () => api.get<{ pix_in: unknown[] }>('/partner/v1/pix-in'),
      (r) => JSON.stringify(r.body).includes(sent.body.end_to_end_id),
    );

    const urls = healthUrls();
    const forged: Array<[string, string]> = [
      [urls.events, Topics.EventsList],
      [urls.inflows, Topics.InflowsList],
    ];
    for (const [url, topic] of forged) {
      const attempts: Array<Record<string, string>> = [
        {},
        { 'x-partner-id': partnerId, 'x-request-id': 'forged-1' },
        { 'x-internal-signature': 'v1=00', 'x-internal-timestamp': String(Date.now()) },
      ];
      for (const headers of attempts) {
        const response = await fetch(`${url}${DIRECT_QUERY_PATH}${topic}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ partner_id: partnerId, limit: 100 }),
        });
        const text = await response.text();
        expect([topic, response.status, text]).toEqual([topic, 401, '{"err":"unauthorized"}']);
      }
    }
  });
});

describe('operator keys through the CLI', () => {
  it('create and revoke write audit entries (method CLI), and the revocation reaches every running gateway through its broadcast', async () => {
    const created = JSON.parse(await cli('create', '--name', `e2e cli ${newUuid().slice(0, 8)}`, '--environment', 'production')) as {
      id: string;
      key: string;
    };
    expect(await auditOf(created.id)).toEqual([{ method: 'CLI', route: 'operator-key create', key_id: created.id, status_code: 201 }]);
    // Every gateway verifies the key now, and would trust it from memory for the next two minutes.
    const cachedAt = Date.now();
    expect(await statusesWith(created.key)).toEqual(gateways().map(() => 200));

    const revoked = JSON.parse(await cli('revoke', '--key', created.id)) as { id: string; revoked_at: string };
    expect(revoked).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    expect(await auditOf(created.id)).toEqual([
      { method: 'CLI', route: 'operator-key create', key_id: created.id, status_code: 201 },
      { method: 'CLI', route: 'operator-key revoke', key_id: created.id, status_code: 200 },
    ]);
    await pollUntil(
      'the revoked key refused by every gateway',
      () => statusesWith(created.key),
      (s) => s.every((status) => status === 401),
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    const refusedAt = Date.now();
    console.log(
      `operator key revoked through the CLI: refused by ${gateways().length} gateways ${refusedAt - Date.parse(revoked.revoked_at)} ms after the revocation committed`,
    );
    // Only the broadcast can drop a key from the caches before they expire.
    expect(refusedAt - cachedAt).toBeLessThan(STACK_OPERATOR_KEY_CACHE_MS);
  });
});

describe('sandbox Pix-in with an idempotency key', () => {
  it('a replay answers the same payment and never makes a second inflow; another request with the key is refused', async () => {
    const { api } = await newPartner('pix-in replay');
    const document = await newUser(api, 0);
    const body = { document, amount_cents: 12_345, idempotency_key: newUuid(), description: 'replayed' };
    const first = await api.post<{ end_to_end_id: string }>('/sandbox/v1/pix-in', body);
    const replays = await Promise.all([1, 2, 3].map(() => api.post<{ end_to_end_id: string }>('/sandbox/v1/pix-in', body)));
    expect(first.status).toBe(202);
    for (const replay of replays) expect([replay.status, replay.body]).toEqual([202, first.body]);

    const reused = await api.post('/sandbox/v1/pix-in', { ...body, amount_cents: 1 });
    expect([reused.status, reused.body]).toEqual([
      422,
      expect.objectContaining({ error: 'idempotency_key_reused', field: 'idempotency_key' }),
    ]);

    // One inflow for the user, the first answer's, once the listing shows it settled.
    const listing = await pollUntil(
      'the inflow settled in the listing',
      () => api.get<{ pix_in: Array<{ end_to_end_id: string; status: string }> }>('/partner/v1/pix-in'),
      (r) => r.status === 200 && r.body.pix_in.some((p) => p.end_to_end_id === first.body.end_to_end_id && p.status === 'credited'),
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(listing.body.pix_in.map((p) => p.end_to_end_id)).toEqual([first.body.end_to_end_id]);
  });
});
