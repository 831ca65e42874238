import { Topics } from '@partner/contracts';
import { FAKE_UNKNOWN_CLAIM, FakeServices } from '../fake-services.spec-support';
import { GatewayUnderTest } from '../gateway-app.spec-support';

// Integration: the claim routes of the partner API (docs/api.md, "Claims") on the real gateway and database, the
// pix-keys service played in memory: what the gateway checks and sends, and the statuses it answers.

const services = new FakeServices();
const gateway = new GatewayUnderTest({ bus: services });
let headers: Record<string, string>;
const CLAIM = '6a1f0c2e-5b7d-4e3a-9c8b-1d2e3f4a5b6c';
const claimUrl = (document: string, claim: string, action: 'confirm' | 'cancel') =>
  `/partner/v1/pix-key/${document}/claims/${claim}/${action}`;

beforeAll(async () => {
  await gateway.start();
  headers = { 'x-api-key': await gateway.newPartnerKey('claims') };
}, 90_000);
afterAll(() => gateway.stop(), 30_000);

describe('POST /partner/v1/pix-key/{document}/claims/{claim_id}/confirm and /cancel', () => {
  it('confirms without a body (the user’s request): 202 accepted, then 200 already_sent; sends the path and the partner', async () => {
    const first = await gateway.send('POST', claimUrl('52998224725', CLAIM, 'confirm'), headers);
    expect([first.status, first.body]).toEqual([202, { status: 'accepted' }]);
    const again = await gateway.post(claimUrl('52998224725', CLAIM, 'confirm'), { reason: 'account_closure' }, headers);
    expect([again.status, again.body]).toEqual([200, { status: 'already_sent' }]);
    expect(services.sentTo(Topics.PixKeysConfirmClaim)).toEqual([
      { document: '52998224725', claim_id: CLAIM, partner_id: expect.any(String) },
      { reason: 'account_closure', document: '52998224725', claim_id: CLAIM, partner_id: expect.any(String) },
    ]);
  });

  it('cancels only with a reason the donor may give', async () => {
    const none = await gateway.post(claimUrl('52998224725', CLAIM, 'cancel'), {}, headers);
    expect([none.status, none.body.status, none.body.field]).toEqual([400, 'invalid_request', 'reason']);
    const closure = await gateway.post(claimUrl('52998224725', CLAIM, 'cancel'), { reason: 'account_closure' }, headers);
    expect([closure.status, closure.body.field]).toEqual([400, 'reason']);
    const fraud = await gateway.post(claimUrl('52998224725', CLAIM, 'cancel'), { reason: 'fraud' }, headers);
    expect([fraud.status, fraud.body]).toEqual([202, { status: 'accepted' }]);
  });

  it('checks the path before the body: a CPF that is none is invalid_document, a claim id that is no UUID invalid_request', async () => {
    const cpf = await gateway.post(claimUrl('52998224700', CLAIM, 'cancel'), {}, headers);
    expect([cpf.status, cpf.body.status, cpf.body.field]).toEqual([400, 'invalid_document', 'document']);
    const id = await gateway.post(claimUrl('52998224725', 'x', 'cancel'), { reason: 'fraud' }, headers);
    expect([id.status, id.body.status, id.body.field]).toEqual([400, 'invalid_request', 'claim_id']);
  });

  it('answers 404 claim_not_found as pix-keys does, in the Pix key family’s body', async () => {
    const res = await gateway.send('POST', claimUrl('52998224725', FAKE_UNKNOWN_CLAIM, 'confirm'), headers);
    expect([res.status, res.body.status]).toEqual([404, 'claim_not_found']);
  });
});
