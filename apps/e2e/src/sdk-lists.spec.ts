import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { ApiClient, newUuid, VALID_ADDRESS } from '@partner/testing';
import { gatewayUrl, newPartner, newUser } from './support/sandbox';
import { installPackedSdk, removeProject, runInProject, SDK_PACKAGE } from './support/sdk-package';

/**
 * The SDK's lists and balance (docs/api.md "SDK") through the packed package, loaded with import() in a
 * child node process: every item across pages, the filters, raw pages, and a user's balance.
 */
const USDT = 1_000_000;

let project: string;
beforeAll(async () => {
  project = await installPackedSdk();
}, 240_000);
afterAll(() => removeProject(project));

async function withdraw(api: ApiClient, document: string): Promise<number> {
  const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', { document, idempotency_key: newUuid(), address: VALID_ADDRESS, usdtmicros: USDT, fee_choice: 'LOW', network: 'MATIC' });
  if (res.status !== 201) throw new Error(`withdrawal failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function registerCustomer(api: ApiClient, externalId: string): Promise<string> {
  const res = await api.post<{ id: string }>('/partner/v1/customers/business', { ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE), cnpj: generateCnpj({ version: 2 }), metadata: { external_id: externalId } });
  if (res.status !== 201) throw new Error(`customer registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

interface Listed {
  withdrawalsOfA: number[];
  withdrawalPages: Array<{ size: number; last: boolean }>;
  pixKeys: string[];
  pixKeyOfB: string[];
  customers: string[];
  customerByExternalId: string[];
  balance: unknown;
}

describe('the SDK lists and balance against the stack', () => {
  it('iterates withdrawals, Pix keys and customers across pages with their filters, and reads a balance', async () => {
    const { api, apiKey } = await newPartner('sdk lists');
    const [a, b, c] = [await newUser(api, 10 * USDT), await newUser(api, 10 * USDT), await newUser(api, 5 * USDT)];
    const ofA = [await withdraw(api, a), await withdraw(api, a), await withdraw(api, a)];
    await withdraw(api, b);
    for (const document of [a, b]) expect((await api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() })).status).toBe(202);
    const customers = [await registerCustomer(api, 'sdk-list-0'), await registerCustomer(api, 'sdk-list-1'), await registerCustomer(api, 'sdk-list-2')];

    const listed = await runInProject<Listed>(project, 'mjs', `
      import { PartnerClient } from '${SDK_PACKAGE}';
      const client = new PartnerClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
      const out = { withdrawalsOfA: [], withdrawalPages: [] };
      for await (const w of client.withdrawals.list({ document: process.env.A, limit: 2 })) out.withdrawalsOfA.push(w.id);
      for await (const page of client.withdrawals.list({ limit: 3 }).pages()) out.withdrawalPages.push({ size: page.withdrawals.length, last: page.next_cursor === null });
      out.pixKeys = (await client.pixKeys.list({ limit: 1 }).toArray()).map((k) => k.document);
      out.pixKeyOfB = (await client.pixKeys.list({ document: process.env.B }).toArray()).map((k) => k.document);
      out.customers = (await client.customers.list({ limit: 2 }).toArray()).map((c) => c.id);
      out.customerByExternalId = (await client.customers.list({ external_id: 'sdk-list-1' }).toArray()).map((c) => c.metadata.external_id);
      out.balance = await client.balances.get(process.env.C);
      console.log(JSON.stringify(out));`,
      { BASE_URL: gatewayUrl(), API_KEY: apiKey, A: a, B: b, C: c });

    expect([...listed.withdrawalsOfA].sort()).toEqual([...ofA].sort());
    expect(listed.withdrawalPages[0]).toEqual({ size: 3, last: false });
    expect(listed.withdrawalPages.reduce((sum, page) => sum + page.size, 0)).toBe(4);
    expect(listed.withdrawalPages.at(-1)?.last).toBe(true);
    expect([...listed.pixKeys].sort()).toEqual([a, b].sort());
    expect(listed.pixKeyOfB).toEqual([b]);
    expect([...listed.customers].sort()).toEqual([...customers].sort());
    expect(listed.customerByExternalId).toEqual(['sdk-list-1']);
    expect(listed.balance).toEqual({ document: c, available_usdt_micros: 5 * USDT, held_usdt_micros: 0 });
  });
});
