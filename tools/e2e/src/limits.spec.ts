import { ApiClient, newCpf, requireEnv, withdrawalRequest } from '@partner/testing';
import { gatewayAdminUrl, newPartner, newUser } from './support/sandbox';

// Withdrawal limits end to end (docs/operations/limits.md): set through the operator API, applied to the
// partner's requests (422 limit_exceeded), shown to the partner with their use.

const USDT = 1_000_000;
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

describe('withdrawal limits', () => {
  it("the operator sets a partner's limits; beyond them a withdrawal is 422 limit_exceeded; the partner reads them with their use", async () => {
    const { id, api } = await newPartner('limits');
    const document = await newUser(api, 100 * USDT);
    const put = await operator().request('PUT', `/admin/v1/partners/${id}/limits`, {
      daily_usdt_micros: 3 * USDT,
      partner_daily_usdt_micros: null,
    });
    expect({ status: put.status, body: put.body }).toMatchObject({
      status: 200,
      body: {
        partner_id: id,
        document: null,
        per_withdrawal_usdt_micros: null,
        daily_usdt_micros: 3 * USDT,
        monthly_usdt_micros: null,
        partner_daily_usdt_micros: null,
        updated_at: expect.any(Number),
      },
    });
    expect((await operator().get(`/admin/v1/partners/${id}/limits`)).body).toEqual(put.body);

    expect((await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { usdtmicros: 2 * USDT }))).status).toBe(201);
    const over = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { usdtmicros: 2 * USDT }));
    expect({ status: over.status, body: over.body }).toEqual({
      status: 422,
      body: {
        error: 'limit_exceeded',
        message: "2000000 micros is over the user's daily limit (any 24 hours) of 3000000 micros; 2000000 used, 1000000 left",
        request_id: expect.any(String),
      },
    });
    const mine = await api.get(`/partner/v1/users/${document}/limits`);
    expect({ status: mine.status, body: mine.body }).toEqual({
      status: 200,
      body: {
        document,
        per_withdrawal_usdt_micros: null,
        daily: { limit_usdt_micros: 3 * USDT, used_usdt_micros: 2 * USDT, remaining_usdt_micros: USDT },
        monthly: { limit_usdt_micros: null, used_usdt_micros: 2 * USDT, remaining_usdt_micros: null },
        partner_daily: { limit_usdt_micros: null, used_usdt_micros: 2 * USDT, remaining_usdt_micros: null },
      },
    });

    // One user's own limit replaces the partner's for that user.
    const own = await operator().request('PUT', `/admin/v1/partners/${id}/users/${document}/limits`, { daily_usdt_micros: 10 * USDT });
    expect({ status: own.status, document: own.body.document, daily: own.body.daily_usdt_micros }).toEqual({
      status: 200,
      document,
      daily: 10 * USDT,
    });
    expect((await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { usdtmicros: 2 * USDT }))).status).toBe(201);
  });

  it('refuses a malformed limit, an unknown partner and an unknown user, each with its code', async () => {
    const { id, api } = await newPartner('limits errors');
    const bad = await operator().request('PUT', `/admin/v1/partners/${id}/limits`, { daily_usdt_micros: -1 });
    expect({ status: bad.status, error: bad.body.error, field: bad.body.field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'daily_usdt_micros',
    });
    const unknown = await operator().request('PUT', '/admin/v1/partners/7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10/limits', {});
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'partner_not_found' });
    const nobody = await operator().request('PUT', `/admin/v1/partners/${id}/users/${newCpf()}/limits`, { daily_usdt_micros: USDT });
    expect({ status: nobody.status, error: nobody.body.error }).toEqual({ status: 404, error: 'user_not_found' });
    const notMine = await api.get(`/partner/v1/users/${newCpf()}/limits`);
    expect({ status: notMine.status, error: notMine.body.error }).toEqual({ status: 404, error: 'user_not_found' });
    const badDocument = await api.get('/partner/v1/users/123/limits');
    expect(badDocument.status).toBe(400);
  });
});
