import { ApiClient, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { balanceOf, gatewayAdminUrl, listEvents, newPartner, newUser } from './support/sandbox';

// Withdrawals above a partner's approval threshold end to end (docs/operations/approvals.md): accepted 201 in
// pending_approval, listed for the operator with the credits' approvals, approved (then paid) or rejected.

const USDT = 1_000_000;
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

interface Approval {
  id: string;
  kind: string;
  status: string;
  withdrawal_id: number | null;
  partner_id: string;
  usdt_micros: number;
  requested_by: string;
  decided_by: string | null;
}

async function pendingWithdrawal(usdtmicros: number) {
  const { id: partnerId, api } = await newPartner('approvals');
  const document = await newUser(api, 100 * USDT);
  expect(
    (await operator().request('PUT', `/admin/v1/partners/${partnerId}/limits`, { approval_threshold_usdt_micros: 5 * USDT })).status,
  ).toBe(200);
  const created = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { usdtmicros }));
  expect(created.status).toBe(201);
  const listed = await operator().get<{ approvals: Approval[] }>('/admin/v1/approvals?status=pending_approval&limit=200');
  const approval = listed.body.approvals.find((a) => a.withdrawal_id === created.body.id);
  return { partnerId, api, document, id: created.body.id, approval };
}

const stateOf = async (api: ApiClient, id: number) =>
  (await api.get<{ state: string; failure_reason: string | null }>(`/partner/v1/withdrawals/usdt/${id}`)).body;

describe('withdrawals above the approval threshold', () => {
  it('are accepted in pending_approval, held, reported, and listed for the operator as a usdt_withdrawal approval', async () => {
    const w = await pendingWithdrawal(6 * USDT);
    expect(await stateOf(w.api, w.id)).toMatchObject({ state: 'pending_approval', failure_reason: null });
    expect(w.approval).toMatchObject({
      kind: 'usdt_withdrawal',
      status: 'pending_approval',
      partner_id: w.partnerId,
      usdt_micros: 6 * USDT,
      requested_by: 'partner',
    });
    expect(await balanceOf(w.api, w.document)).toBe(100 * USDT - 6 * USDT - 20_000);
    const short = await operator().get<{ approvals: Approval[] }>('/admin/v1/approvals?status=pending&limit=200');
    expect(short.body.approvals.map((a) => a.id)).toContain(w.approval?.id);
    const read = await operator().get<Approval>(`/admin/v1/approvals/${w.approval?.id}`);
    expect({ status: read.status, id: read.body.withdrawal_id }).toEqual({ status: 200, id: w.id });
  });

  it('rejected by an operator: failed rejected_by_operator, the amount back, both states in the feed', async () => {
    const w = await pendingWithdrawal(7 * USDT);
    const rejected = await operator().post<Approval>(`/admin/v1/approvals/${w.approval?.id}`, {
      decision: 'reject',
      note: 'unusual for this user',
    });
    expect({ status: rejected.status, body: rejected.body }).toMatchObject({
      status: 200,
      body: { status: 'rejected', decided_by: expect.any(String) },
    });
    expect(await stateOf(w.api, w.id)).toMatchObject({ state: 'failed', failure_reason: 'rejected_by_operator' });
    expect(await balanceOf(w.api, w.document)).toBe(100 * USDT);
    const approveNow = await operator().post(`/admin/v1/approvals/${w.approval?.id}`, { decision: 'approve' });
    expect({ status: approveNow.status, error: approveNow.body.error }).toEqual({ status: 409, error: 'invalid_transition' });
    const feed = await pollUntil(
      'the failed event',
      () => listEvents(w.api),
      (found) => found.some((e) => e.resource_id === String(w.id) && e.state === 'failed'),
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(feed.filter((e) => e.resource_id === String(w.id)).map((e) => e.state)).toEqual(['pending_approval', 'failed']);
  });

  it('approved by an operator: created, then paid on chain', async () => {
    const w = await pendingWithdrawal(8 * USDT);
    const approved = await operator().post<Approval>(`/admin/v1/approvals/${w.approval?.id}`, { decision: 'approve' });
    expect({ status: approved.status, decision: approved.body.status }).toEqual({ status: 200, decision: 'approved' });
    await pollUntil(
      'the approved withdrawal settled',
      () => stateOf(w.api, w.id),
      (s) => s.state === 'settled',
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
  });

  it('an approval id nobody has is 404', async () => {
    const res = await operator().post('/admin/v1/approvals/5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41', { decision: 'approve' });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'not_found' });
  });
});
