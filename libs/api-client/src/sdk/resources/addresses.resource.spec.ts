import { PartnerClient } from '../partner-client';
import { TestServer } from '../test-server.spec-support';

// The limits and saved-address calls against a real local HTTP server: the paths, bodies and answers they carry.

let server: TestServer;
beforeAll(async () => (server = await new TestServer().start()));
afterAll(() => server.stop());

const client = () => new PartnerClient({ baseUrl: server.url, apiKey: 'pk_test', retry: { baseDelayMs: 10 } });
const ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const owner = { wallet: 'self_hosted' as const, name: 'Maria da Silva Souza', first_party: true };

describe('limits and saved addresses', () => {
  it("limits: GET the user's limits and their use", async () => {
    const limits = {
      document: '52998224725',
      per_withdrawal_usdt_micros: null,
      daily: { limit_usdt_micros: 5, used_usdt_micros: 1, remaining_usdt_micros: 4 },
    };
    server.script({ body: limits });
    await expect(client().limits.get('52998224725')).resolves.toEqual(limits);
    expect(server.received[0].url).toBe('/partner/v1/users/52998224725/limits');
  });

  it('addresses: the challenge by address, a save with its body, a removal by address', async () => {
    server.script({ body: { message: 'I control …' } });
    await expect(client().addresses.challenge('52998224725', ADDRESS)).resolves.toEqual({ message: 'I control …' });
    expect(server.received[0].url).toBe(`/partner/v1/users/52998224725/addresses/challenge?address=${ADDRESS}`);

    const saved = { address: ADDRESS.toLowerCase(), label: null, beneficiary: owner, verified: false, created_at: 1, usable_from: 1 };
    server.script({ status: 201, body: saved });
    await expect(client().addresses.save('52998224725', { address: ADDRESS, beneficiary: owner })).resolves.toEqual(saved);
    expect(server.received[0]).toMatchObject({
      method: 'POST',
      url: '/partner/v1/users/52998224725/addresses',
      body: { address: ADDRESS, beneficiary: owner },
    });

    server.script({ body: saved });
    await expect(client().addresses.remove('52998224725', ADDRESS)).resolves.toEqual(saved);
    expect(server.received[0]).toMatchObject({ method: 'DELETE', url: `/partner/v1/users/52998224725/addresses/${ADDRESS}` });
  });
});
