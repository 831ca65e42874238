import { ApiClient, requireEnv, withdrawalRequest } from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { gatewayAdminUrl, newPartner, newUser } from './support/sandbox';

// A withdrawal's destination end to end (docs/operations/destinations.md): the beneficiary a partner's policy
// asks for, and the user's saved addresses (address book) with proof of control and a cool-down.

const USDT = 1_000_000;
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
const owner = { wallet: 'self_hosted', name: 'Maria da Silva Souza', document: '52998224725', first_party: true };

async function partnerWithPolicy(policy: Record<string, unknown>) {
  const partner = await newPartner('destinations');
  const put = await operator().request('PUT', `/admin/v1/partners/${partner.id}/withdrawal-policy`, policy);
  expect(put.status).toBe(200);
  const document = await newUser(partner.api, 20 * USDT);
  return { ...partner, document, policy: put.body };
}

describe("a withdrawal's destination: its owner and the user's saved addresses", () => {
  it('under beneficiary_required, a withdrawal without one is 422 beneficiary_required; one named is shown in its read-back', async () => {
    const { api, document, policy, id } = await partnerWithPolicy({ beneficiary_required: true });
    expect(policy).toMatchObject({ partner_id: id, beneficiary_required: true, address_book_only: false, address_cooldown_seconds: 0 });
    const refused = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect({ status: refused.status, error: refused.body.error, field: refused.body.field }).toEqual({
      status: 422,
      error: 'beneficiary_required',
      field: 'beneficiary',
    });
    const created = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { beneficiary: owner }));
    expect(created.status).toBe(201);
    expect((await api.get(`/partner/v1/withdrawals/usdt/${created.body.id}`)).body).toMatchObject({ beneficiary: owner });
    const malformed = await api.post(
      '/partner/v1/withdrawals/usdt',
      withdrawalRequest(document, { beneficiary: { ...owner, document: '123' } }),
    );
    expect({ status: malformed.status, field: malformed.body.field }).toEqual({ status: 400, field: 'beneficiary.document' });
  });

  it('under address_book_only, only saved addresses are paid, after the cool-down; a proof of control is verified', async () => {
    const { api, document, id } = await partnerWithPolicy({ address_book_only: true, address_cooldown_seconds: 3600 });
    const key = privateKeyToAccount(generatePrivateKey());
    const notSaved = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address: key.address }));
    expect({ status: notSaved.status, error: notSaved.body.error }).toEqual({ status: 422, error: 'address_not_saved' });

    const challenge = await api.get<{ message: string }>(`/partner/v1/users/${document}/addresses/challenge?address=${key.address}`);
    expect(challenge.status).toBe(200);
    const signature = await key.signMessage({ message: challenge.body.message });
    const forged = await api.post(`/partner/v1/users/${document}/addresses`, {
      address: key.address,
      beneficiary: owner,
      proof: { signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message: challenge.body.message }) },
    });
    expect({ status: forged.status, error: forged.body.error, field: forged.body.field }).toEqual({
      status: 422,
      error: 'invalid_proof',
      field: 'proof.signature',
    });
    const saved = await api.post<{ verified: boolean; created_at: number; usable_from: number }>(
      `/partner/v1/users/${document}/addresses`,
      {
        address: key.address,
        label: 'cold wallet',
        beneficiary: owner,
        proof: { signature },
      },
    );
    expect(saved.status).toBe(201);
    expect(saved.body.verified).toBe(true);
    expect(saved.body.usable_from - saved.body.created_at).toBe(3600);
    const cooling = await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address: key.address }));
    expect({ status: cooling.status, error: cooling.body.error }).toEqual({ status: 422, error: 'address_cooling_down' });

    // The operator lifts the cool-down: the saved address is paid at once, carrying its owner.
    expect((await operator().request('PUT', `/admin/v1/partners/${id}/withdrawal-policy`, { address_book_only: true })).status).toBe(200);
    const paid = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { address: key.address }));
    expect(paid.status).toBe(201);
    expect((await api.get(`/partner/v1/withdrawals/usdt/${paid.body.id}`)).body).toMatchObject({ beneficiary: owner });
    const listed = await api.get<{ addresses: { address: string }[] }>(`/partner/v1/users/${document}/addresses`);
    expect(listed.body.addresses.map((a) => a.address)).toEqual([key.address.toLowerCase()]);
    expect((await api.request('DELETE', `/partner/v1/users/${document}/addresses/${key.address}`)).status).toBe(200);
    expect((await api.request('DELETE', `/partner/v1/users/${document}/addresses/${key.address}`)).status).toBe(404);
  });
});
