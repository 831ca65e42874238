import { fail, MedCaseView, ok, RequestPayload, RequestReply, RequestTopic, Topics } from '@partner/contracts';
import { requireEnv } from '@partner/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { GatewayUnderTest } from '../gateway-app.spec-support';

// Integration: the MED operator routes of a production gateway against its real database (operator keys, audit
// log), the inflows service played by a bus that answers the two topics and records what it was sent.
const ADMIN_KEY = `adm_med_${randomBytes(24).toString('base64url')}`;
const OPEN = randomUUID();
const DECIDED = randomUUID();
const PARTNER = randomUUID();
const sent: Array<{ topic: RequestTopic; payload: unknown }> = [];

const view = (caseId: string): MedCaseView => ({
  case_id: caseId,
  kind: 'refund_request',
  reason: 'FRAUD',
  end_to_end_id: 'E60701190202611260430Ab12Cd34Ef5',
  partner_id: PARTNER,
  document: '52998224725',
  status: 'returning',
  asked_cents: 10_000,
  blocked_cents: 0,
  returned_cents: 0,
  attention: null,
  details: null,
  infraction_report_id: null,
  opened_by: '60701190',
  opened_at: 1_795_315_285,
  dict_result: null,
  rejection_reason: null,
  analysis_details: 'scam confirmed',
  refund_transaction_id: null,
  decided_by: 'operator',
  created_at: 1_795_315_285,
  last_updated_at: 1_795_315_285,
});

const bus = {
  async request<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): Promise<RequestReply<T>> {
    sent.push({ topic, payload });
    const p = payload as { case_id?: string };
    if (topic === Topics.InflowsListMedCases) return ok({ med_cases: [view(OPEN)], next_cursor: null }) as RequestReply<T>;
    if (topic === Topics.InflowsDecideMedCase && p.case_id === OPEN) return ok(view(OPEN)) as RequestReply<T>;
    if (topic === Topics.InflowsDecideMedCase && p.case_id === DECIDED)
      return fail('med_case_not_open', `MED case ${DECIDED} is agreed: only an open case is decided`) as RequestReply<T>;
    return fail('med_case_not_found', 'no MED case', 'case_id') as RequestReply<T>;
  },
};
const gateway = new GatewayUnderTest({ bus, env: { SANDBOX: 'false', ADMIN_API_KEY: ADMIN_KEY } });
const db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 1 });
const admin = { 'x-admin-key': ADMIN_KEY };

beforeAll(() => gateway.start());
afterAll(async () => {
  await gateway.stop();
  await db.end();
});

describe('MED cases on the operator API', () => {
  it('lists the cases with the filters passed on to inflows', async () => {
    const res = await gateway.send('GET', `/admin/v1/med-cases?status=open&limit=10`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ med_cases: [view(OPEN)], next_cursor: null });
    expect(sent.at(-1)).toEqual({ topic: Topics.InflowsListMedCases, payload: { status: 'open', limit: 10 } });
    expect((await gateway.send('GET', '/admin/v1/med-cases?status=closed', admin)).body).toMatchObject({
      error: 'invalid_request',
      field: 'status',
    });
  });

  it('decides a case with the operator as `by`, audited; maps the refusals to 404, 409, a bad input to 400', async () => {
    const requestId = randomUUID();
    const body = { decision: 'accept', amount_cents: 4_000, details: 'scam confirmed' };
    const res = await gateway.send('POST', `/admin/v1/med-cases/${OPEN}/decision`, { ...admin, 'x-request-id': requestId }, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ case_id: OPEN, status: 'returning' });
    expect(sent.at(-1)).toEqual({
      topic: Topics.InflowsDecideMedCase,
      payload: { ...body, case_id: OPEN, by: expect.any(String), asked_at: expect.any(String) },
    });
    const { rows } = await db.query<{ route: string; status_code: number }>(
      'SELECT route, status_code FROM gateway.audit_log WHERE request_id = $1',
      [requestId],
    );
    expect(rows).toEqual([{ route: '/admin/v1/med-cases/:case_id/decision', status_code: 200 }]);

    const decide = (caseId: string, b: unknown) => gateway.send('POST', `/admin/v1/med-cases/${caseId}/decision`, admin, b);
    expect(await decide(DECIDED, { decision: 'agree', details: 'x' })).toMatchObject({ status: 409, body: { error: 'med_case_not_open' } });
    expect(await decide(randomUUID(), { decision: 'agree', details: 'x' })).toMatchObject({
      status: 404,
      body: { error: 'med_case_not_found' },
    });
    expect(await decide('not-a-uuid', { decision: 'agree', details: 'x' })).toMatchObject({ status: 400, body: { field: 'case_id' } });
    expect(await decide(OPEN, { decision: 'reject', details: 'x' })).toMatchObject({ status: 400, body: { field: 'rejection_reason' } });
    expect(await decide(OPEN, { decision: 'maybe', details: 'x' })).toMatchObject({ status: 400, body: { field: 'decision' } });
  });

  it('answers 401 without an operator key', async () => {
    expect((await gateway.send('GET', '/admin/v1/med-cases', {})).status).toBe(401);
  });
});
