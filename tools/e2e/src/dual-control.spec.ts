import { ApiClient, newCpf, newUuid, requireEnv } from '@partner/testing';
import { operatorCli } from './support/operator-cli';

// Dual control of operator credits (docs/operations/security.md, "Dual control") on the production shape of the
// stack (SANDBOX=false gateways, OPERATOR_GATEWAY_ADMIN_URLS): a credit above CREDIT_APPROVAL_THRESHOLD_USDT_MICROS
// (10,000 USDT by default) moves nothing until a second operator key, made with the CLI as an operator would,
// approves it.

const USDT = 1_000_000;
const ABOVE = 25_000 * USDT;
const [firstAdmin, secondAdmin] = requireEnv('OPERATOR_GATEWAY_ADMIN_URLS').split(',');
/** Calls from a client address of its own (the stack trusts one proxy hop, as behind the Compose proxy). */
const withKey = (key: string, url = firstAdmin, address = '203.0.113.7') =>
  new ApiClient(url, { 'x-admin-key': key, 'x-forwarded-for': address });
const requester = () => withKey(requireEnv('PRODUCTION_ADMIN_API_KEY'));
let approverKey: string;
let approverId: string;
let approverName: string;
const approver = (url = secondAdmin) => withKey(approverKey, url, '198.51.100.4');

interface Approval {
  id: string;
  status: string;
  usdt_micros: number;
  requested_by: string;
  decided_by: string | null;
  available_usdt_micros?: number | null;
}

/** A partner with one user, made through the operator API; the user's path. */
async function newUserPath(): Promise<string> {
  const partner = await requester().post<{ id: string }>('/admin/v1/partners', { name: `dual control ${newUuid().slice(0, 8)}` });
  expect(partner.status).toBe(201);
  const document = newCpf();
  expect((await requester().post(`/admin/v1/partners/${partner.body.id}/users`, { document })).status).toBe(201);
  return `/admin/v1/partners/${partner.body.id}/users/${document}`;
}

const available = async (user: string) =>
  (await requester().get<{ available_usdt_micros: number }>(`${user}/balance`)).body.available_usdt_micros;
const credit = (usdt_micros: number) => ({ usdt_micros, idempotency_key: `deposit-${newUuid()}`, reference: 'TED 4411' });

beforeAll(async () => {
  approverName = `e2e approver ${newUuid().slice(0, 8)}`;
  const { code, stdout, out } = await operatorCli('operator-key', 'create', '--name', approverName, '--environment', 'production');
  if (code !== 0) throw new Error(`operator-key create: exit ${code}\n${out}`);
  ({ key: approverKey, id: approverId } = JSON.parse(stdout.trim()) as { key: string; id: string });
});

describe('dual control of operator credits above the threshold', () => {
  it('a credit above the threshold answers 202 pending_approval and moves nothing; the same request again answers the same approval', async () => {
    const user = await newUserPath();
    const body = credit(ABOVE);
    const asked = await requester().post<Approval>(`${user}/credits`, body);
    expect({ status: asked.status, body: asked.body }).toMatchObject({
      status: 202,
      body: { status: 'pending_approval', usdt_micros: ABOVE, decided_by: null, id: expect.any(String) },
    });
    const again = await requester().post<Approval>(`${user}/credits`, body);
    expect({ status: again.status, id: again.body.id }).toEqual({ status: 202, id: asked.body.id });
    // Its key now belongs to that request: another credit under it is refused, even one below the threshold.
    const reused = await requester().post(`${user}/credits`, { ...body, usdt_micros: USDT });
    expect({ status: reused.status, body: reused.body }).toMatchObject({ status: 422, body: { error: 'idempotency_key_reused' } });
    expect(await available(user)).toBe(0);
    const pending = await approver().get<{ approvals: Approval[] }>('/admin/v1/approvals?status=pending_approval&limit=200');
    expect(pending.body.approvals.map((a) => a.id)).toContain(asked.body.id);
    // At the threshold or below, one key credits as before.
    expect((await requester().post(`${user}/credits`, credit(10_000 * USDT))).status).toBe(201);
    expect(await available(user)).toBe(10_000 * USDT);
  });

  it('the key that asked cannot decide (403 same_operator); a rejection leaves the balance as it was and cannot be undone', async () => {
    const user = await newUserPath();
    const { body: asked } = await requester().post<Approval>(`${user}/credits`, credit(ABOVE));
    for (const decision of ['approve', 'reject']) {
      const own = await requester().post(`/admin/v1/approvals/${asked.id}`, { decision });
      expect({ status: own.status, body: own.body }).toMatchObject({ status: 403, body: { error: 'same_operator' } });
    }
    const rejected = await approver().post<Approval>(`/admin/v1/approvals/${asked.id}`, { decision: 'reject', note: 'no such TED' });
    expect({ status: rejected.status, body: rejected.body }).toMatchObject({
      status: 200,
      body: { status: 'rejected', decided_by: expect.stringContaining(approverName), available_usdt_micros: null },
    });
    const late = await approver(firstAdmin).post(`/admin/v1/approvals/${asked.id}`, { decision: 'approve' });
    expect({ status: late.status, body: late.body }).toMatchObject({ status: 409, body: { error: 'invalid_transition' } });
    expect(await available(user)).toBe(0);
  });

  it('a second key approves: the credit is applied once, however many times and through however many gateways it is approved', async () => {
    const user = await newUserPath();
    const { body: asked } = await requester().post<Approval>(`${user}/credits`, credit(ABOVE));
    const decisions = await Promise.all(
      [secondAdmin, firstAdmin, secondAdmin].map((url) =>
        approver(url).post<Approval>(`/admin/v1/approvals/${asked.id}`, { decision: 'approve' }),
      ),
    );
    expect(decisions.map((d) => [d.status, d.body.status, d.body.available_usdt_micros])).toEqual(Array(3).fill([200, 'approved', ABOVE]));
    expect(await available(user)).toBe(ABOVE);
    expect((await approver().post(`/admin/v1/approvals/${asked.id}`, { decision: 'reject' })).status).toBe(409);

    // The ledger line names both keys; the approval both keys, the audit log the amount and the addresses.
    const ledger = await requester().get<{ entries: { type: string; operators: string | null }[] }>(`${user}/ledger`);
    expect(ledger.body.entries).toEqual([
      expect.objectContaining({ type: 'credit', operators: `${asked.requested_by}; approved by ${decisions[0].body.decided_by}` }),
    ]);
    expect(ledger.body.entries[0].operators).toContain(approverName);
    type AuditEntry = { route: string; usdt_micros: number | null; client_address: string | null; status_code: number };
    const auditOf = async (filter: string) =>
      (await requester().get<{ entries: AuditEntry[] }>(`/admin/v1/audit-log?limit=200&${filter}`)).body.entries;
    expect(await auditOf(`partner_id=${user.split('/')[4]}`)).toContainEqual(
      expect.objectContaining({
        route: '/admin/v1/partners/:partner_id/users/:document/credits',
        usdt_micros: ABOVE,
        client_address: '203.0.113.7',
        status_code: 202,
      }),
    );
    expect(await auditOf(`operator_key_id=${approverId}`)).toContainEqual(
      expect.objectContaining({ route: '/admin/v1/approvals/:id', client_address: '198.51.100.4', status_code: 200 }),
    );
  });

  it('an unknown approval is 404, a malformed id or decision 400, and a credit above the threshold for an unknown user 404 user_not_found', async () => {
    expect((await approver().post(`/admin/v1/approvals/${newUuid()}`, { decision: 'approve' })).status).toBe(404);
    const malformed = await approver().post('/admin/v1/approvals/not-a-uuid', { decision: 'approve' });
    expect({ status: malformed.status, body: malformed.body }).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', field: 'id' },
    });
    const decision = await approver().post(`/admin/v1/approvals/${newUuid()}`, { decision: 'maybe' });
    expect({ status: decision.status, body: decision.body }).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', field: 'decision' },
    });
    const user = await newUserPath();
    const unknown = user.replace(/\d{11}$/, newCpf());
    const refused = await requester().post(`${unknown}/credits`, credit(ABOVE));
    expect({ status: refused.status, body: refused.body }).toMatchObject({ status: 404, body: { error: 'user_not_found' } });
  });
});
