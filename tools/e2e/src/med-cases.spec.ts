import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { ApiClient, pollUntil, requireEnv } from '@partner/testing';
import { creditedPix, gatewayAdminUrl, listEvents, newPartner, newUser } from './support/sandbox';

// MED through the running stack (docs/operations/pix-and-dict.md, "MED", ADR 0037): the payer's institution opens
// an infraction report in DICT (the DICT test server's control route plays it); pix-keys finds it, acknowledges it
// and tells inflows over the bus, which blocks the funds; the operator agrees; pix-keys closes the report in DICT.
// The refund request that follows takes the block over; the operator accepts; inflows returns the funds by a
// devolução through the Pix API test server; pix-keys closes the request in DICT with the devolução's id.

type Balance = { available_brl_cents: number; blocked_brl_cents: number };
type MedCase = { case_id: string; kind: string; status: string; blocked_cents: number; dict_result: string | null };

const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

/** A call to the DICT test server with pix-keys' client certificate: its control route (JSON) or DICT's API (XML). */
async function dict(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; text: string }> {
  const agent = new Agent({
    connect: {
      ca: readFileSync(requireEnv('DICT_CA_FILE')),
      cert: readFileSync(requireEnv('DICT_CLIENT_CERT_FILE')),
      key: readFileSync(requireEnv('DICT_CLIENT_KEY_FILE')),
    },
  });
  try {
    const res = await request(url, {
      method,
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'PI-RequestingParticipant': requireEnv('DICT_ISPB') },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, text: await res.body.text() };
  } finally {
    await agent.close();
  }
}

/** The payer's institution (the ISPB in the end-to-end id) opens a case against the payment in DICT. */
async function openAsPayer(e2e: string, what: 'infraction-reports' | 'refunds', input: Record<string, unknown>): Promise<string> {
  const origin = new URL(requireEnv('DICT_URL')).origin;
  const res = await dict('POST', `${origin}/test-control/participants/${e2e.slice(1, 9)}/${what}`, input);
  expect(res.status).toBe(201);
  return (JSON.parse(res.text) as { id: string }).id;
}

/** A case as DICT has it (getInfractionReport / getRefund): the fields of its XML this suite reads. */
async function inDict(what: 'infraction-reports' | 'refunds', id: string): Promise<Record<string, string>> {
  const res = await dict('GET', `${requireEnv('DICT_URL')}/${what}/${id}`);
  expect(res.status).toBe(200);
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(res.text)?.[1] ?? '';
  return {
    status: field('Status'),
    result: field('AnalysisResult'),
    refundTransactionId: field('RefundTransactionId'),
  };
}

const medCase = (id: string) =>
  pollUntil(
    `MED case ${id} at the operator`,
    () => operator().get<{ med_cases: MedCase[] }>('/admin/v1/med-cases?limit=100'),
    (r) => r.status === 200 && r.body.med_cases.some((c) => c.case_id === id),
  ).then((r) => r.body.med_cases.find((c) => c.case_id === id) as MedCase);

const balance = async (api: ApiClient, document: string) => (await api.get<Balance>(`/partner/v1/users/${document}/balance`)).body;

describe('MED end to end: DICT, pix-keys, the bus, inflows, the operator, the Pix provider', () => {
  it('an infraction report blocks the funds, agreed; the refund request that follows returns them by devolução', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const e2e = await creditedPix(api, document, 8_000);
    const ispb = requireEnv('DICT_ISPB');

    const reportId = await openAsPayer(e2e, 'infraction-reports', {
      transactionId: e2e,
      infractionType: 'FRAUD',
      reportDetails: 'QR Code falso',
      counterparty: ispb,
    });

    // pix-keys lists it, inflows blocks the inflow's amount: the partner sees it in the balance, the inflow, the feed.
    const blocked = await pollUntil(
      'the funds blocked',
      () => balance(api, document),
      (b) => b.blocked_brl_cents === 8_000,
    );
    expect(blocked).toMatchObject({ available_brl_cents: 0, blocked_brl_cents: 8_000 });
    expect((await api.get<{ status: string }>(`/partner/v1/pix-in/${e2e}`)).body.status).toBe('blocked');
    await pollUntil(
      'a pix_in blocked event',
      () => listEvents(api),
      (events) => events.some((e) => e.type === 'pix_in' && e.resource_id === e2e && e.state === 'blocked'),
    );
    // Acknowledged in DICT; a partner refund cannot take the blocked money.
    await pollUntil(
      'the report acknowledged in DICT',
      () => inDict('infraction-reports', reportId),
      (r) => r.status === 'ACKNOWLEDGED',
    );
    const refused = await api.post<{ error: string }>(`/partner/v1/pix-in/${e2e}/refunds`, {
      idempotency_key: randomUUID(),
      amount_cents: 100,
      reason: 'not now',
    });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 409, error: 'pix_in_not_refundable' });

    const report = await medCase(reportId);
    expect(report).toMatchObject({ kind: 'infraction_report', status: 'open', blocked_cents: 8_000, dict_result: null });
    const agreed = await operator().post<MedCase>(`/admin/v1/med-cases/${reportId}/decision`, {
      decision: 'agree',
      details: 'Fraud confirmed by our analysis',
    });
    expect({ status: agreed.status, case: agreed.body.status, result: agreed.body.dict_result }).toEqual({
      status: 200,
      case: 'agreed',
      result: 'AGREED',
    });
    await pollUntil(
      'the report closed AGREED in DICT',
      () => inDict('infraction-reports', reportId),
      (r) => r.status === 'CLOSED',
    );
    expect(await inDict('infraction-reports', reportId)).toMatchObject({ status: 'CLOSED', result: 'AGREED' });

    // The refund request takes the block over (nothing blocked twice) and is accepted: a devolução returns it.
    const refundId = await openAsPayer(e2e, 'refunds', {
      transactionId: e2e,
      refundReason: 'FRAUD',
      refundAmount: '80.00',
      contestedParticipant: ispb,
    });
    const request = await medCase(refundId);
    expect(request).toMatchObject({ kind: 'refund_request', status: 'open', blocked_cents: 8_000 });
    expect(await balance(api, document)).toMatchObject({ available_brl_cents: 0, blocked_brl_cents: 8_000 });
    const accepted = await operator().post<MedCase>(`/admin/v1/med-cases/${refundId}/decision`, {
      decision: 'accept',
      details: 'Returned in full',
    });
    expect({ status: accepted.status, case: accepted.body.status }).toEqual({ status: 200, case: 'returning' });

    const closed = await pollUntil(
      'the request closed in DICT',
      () => inDict('refunds', refundId),
      (r) => r.status === 'CLOSED',
    );
    expect(closed.result).toBe('TOTALLY_ACCEPTED');
    expect(closed.refundTransactionId).toMatch(/^D\d{20}[a-zA-Z0-9]{11}$/);
    expect(await medCase(refundId)).toMatchObject({ status: 'returned', dict_result: 'TOTALLY_ACCEPTED', blocked_cents: 0 });
    expect(await balance(api, document)).toMatchObject({ available_brl_cents: 0, blocked_brl_cents: 0 });
    expect((await api.get<{ status: string; returned_cents: number }>(`/partner/v1/pix-in/${e2e}`)).body).toMatchObject({
      status: 'returned',
      returned_cents: 8_000,
    });
  }, 120_000);

  it('a report disagreed releases the block exactly, and DICT is told DISAGREED', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const e2e = await creditedPix(api, document, 3_000);
    const reportId = await openAsPayer(e2e, 'infraction-reports', {
      transactionId: e2e,
      infractionType: 'FRAUD',
      counterparty: requireEnv('DICT_ISPB'),
    });
    await pollUntil(
      'the funds blocked',
      () => balance(api, document),
      (b) => b.blocked_brl_cents === 3_000,
    );
    await medCase(reportId);
    const decided = await operator().post<MedCase>(`/admin/v1/med-cases/${reportId}/decision`, {
      decision: 'disagree',
      details: 'A legitimate sale',
    });
    expect(decided.status).toBe(200);
    expect(await balance(api, document)).toMatchObject({ available_brl_cents: 3_000, blocked_brl_cents: 0 });
    expect((await api.get<{ status: string }>(`/partner/v1/pix-in/${e2e}`)).body.status).toBe('credited');
    await pollUntil(
      'the report closed in DICT',
      () => inDict('infraction-reports', reportId),
      (r) => r.status === 'CLOSED',
    );
    expect((await inDict('infraction-reports', reportId)).result).toBe('DISAGREED');
  });
});
