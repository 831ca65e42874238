import { ApiClient, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { gatewayAdminUrl, listEvents, newPartner, newUser } from './support/sandbox';

// Reports of settled withdrawals to the Receita Federal end to end (docs/operations/reports.md): made for a
// period, read as JSON and CSV, marked filed: each withdrawal moves settled → reported, reported in the feed.

const USDT = 1_000_000;
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
const seconds = (ms: number) => Math.floor(ms / 1000);

interface Withdrawal {
  state: string;
  report_id: string | null;
}

describe('reports of settled withdrawals, and the `reported` state', () => {
  it('a settled withdrawal is in the report of its period (JSON and CSV); filing the report moves it to reported, in the feed', async () => {
    const from = seconds(Date.now()) - 1;
    const { api } = await newPartner('reports');
    const document = await newUser(api, 10 * USDT);
    const created = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { usdtmicros: 2 * USDT }));
    expect(created.status).toBe(201);
    const id = created.body.id;
    await pollUntil(
      'the withdrawal settled',
      async () => (await api.get<Withdrawal>(`/partner/v1/withdrawals/usdt/${id}`)).body,
      (w) => w.state === 'settled',
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    const to = seconds(Date.now()) + 1;
    await pollUntil(
      'the period over',
      async () => Date.now(),
      (now) => now > to * 1000,
      { timeoutMs: 5_000, intervalMs: 50 },
    );

    const report = await operator().post<{ id: string; withdrawals: number }>('/admin/v1/reports/withdrawals', { from, to });
    expect(report.status).toBe(201);
    const json = await operator().get<{ rows: { withdrawal_id: number; document: string; usdt_micros: number }[]; lacks: string[] }>(
      `/admin/v1/reports/${report.body.id}?format=json`,
    );
    expect(json.status).toBe(200);
    expect(json.body.rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ withdrawal_id: id, document, usdt_micros: 2 * USDT })]),
    );
    expect(json.body.lacks).toEqual(['brl_value', 'brl_fee']);
    const csv = await fetch(`${gatewayAdminUrl()}/admin/v1/reports/${report.body.id}?format=csv`, {
      headers: { 'x-admin-key': requireEnv('ADMIN_API_KEY') },
    });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toMatch(
      /^withdrawal_id,settled_at,partner_id,document,asset,network,usdt_micros,fee_usdt_micros,destination,tx_hash,/,
    );
    expect(lines.filter((l) => l.startsWith(`${id},`))).toEqual([expect.stringContaining(`,${document},USDT,MATIC,2000000,`)]);

    const filed = await operator().post(`/admin/v1/reports/${report.body.id}/filed`, { receipt: '12.34.56.78.90-12' });
    expect({ status: filed.status, receipt: filed.body.receipt }).toEqual({ status: 200, receipt: '12.34.56.78.90-12' });
    expect((await api.get<Withdrawal>(`/partner/v1/withdrawals/usdt/${id}`)).body).toMatchObject({
      state: 'reported',
      report_id: report.body.id,
    });
    const feed = await pollUntil(
      'the reported event',
      () => listEvents(api),
      (events) => events.some((e) => e.resource_id === String(id) && e.state === 'reported'),
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(feed.filter((e) => e.resource_id === String(id)).map((e) => e.state)).toEqual(['created', 'sent', 'settled', 'reported']);
    const again = await operator().post(`/admin/v1/reports/${report.body.id}/filed`, { receipt: 'another' });
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 409, error: 'invalid_transition' });
  });

  it('refuses a period not over yet (400, field to) and an unknown report (404)', async () => {
    const now = seconds(Date.now());
    const future = await operator().post('/admin/v1/reports/withdrawals', { from: now - 60, to: now + 3600 });
    expect({ status: future.status, error: future.body.error, field: future.body.field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'to',
    });
    const unknown = await operator().get('/admin/v1/reports/5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41');
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'not_found' });
  });
});
