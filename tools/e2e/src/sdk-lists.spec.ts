import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { ApiClient, newCpf, newUuid, withdrawalRequest } from '@partner/testing';
import { gatewayUrl, newPartner, newUser } from './support/sandbox';
import { installPackedSdk, removeProject, runInProject, SDK_PACKAGE } from './support/sdk-package';

/**
 * The SDK's lists and balance (docs/api.md "SDK" and "Lists") through the packed package, loaded with
 * import() in a child node process: pages chained to the end newest first with no repeat, each filter
 * the routes take narrowing the list, raw pages, a user's balance after a credit and a withdrawal's hold,
 * and 404 user_not_found as a PartnerApiError.
 */
const USDT = 1_000_000;
/** A MATIC LOW withdrawal holds its amount and this fee until it is final. */
const LOW_FEE = 20_000;

let project: string;
beforeAll(async () => {
  project = await installPackedSdk();
}, 240_000);
afterAll(() => removeProject(project));

async function withdraw(api: ApiClient, document: string): Promise<number> {
  const res = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
  if (res.status !== 201) throw new Error(`withdrawal failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function registerCustomer(api: ApiClient, externalId: string, cnpj: string): Promise<string> {
  const res = await api.post<{ id: string }>('/partner/v1/customers/business', {
    ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE),
    cnpj,
    metadata: { external_id: externalId },
  });
  if (res.status !== 201) throw new Error(`customer registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

interface Listed {
  withdrawals: number[];
  withdrawalsOfA: number[];
  withdrawalPages: Array<{ size: number; last: boolean }>;
  sinceAnHourAgo: number[];
  fromTomorrow: number[];
  untilLastYear: number[];
  pixKeys: string[];
  pixKeyOfB: string[];
  customers: string[];
  customerByExternalId: string[];
  customerByCnpj: string[];
  credited: unknown;
  held: { document: string; available_usdt_micros: number; held_usdt_micros: number };
  unknownUser: unknown;
}

describe('the SDK lists and balance against the stack', () => {
  it('chains pages newest first to the end, narrows by each filter, and reads a balance after a credit and a hold', async () => {
    const { api, apiKey } = await newPartner('sdk lists');
    const [a, b, c] = [await newUser(api, 10 * USDT), await newUser(api, 10 * USDT), await newUser(api, 5 * USDT)];
    const ofA = [await withdraw(api, a), await withdraw(api, a), await withdraw(api, a)];
    const all = [...ofA, await withdraw(api, b)];
    for (const document of [a, b])
      expect((await api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() })).status).toBe(202);
    const cnpj = generateCnpj({ version: 2 });
    const customers = [
      await registerCustomer(api, 'sdk-list-0', generateCnpj({ version: 2 })),
      await registerCustomer(api, 'sdk-list-1', cnpj),
      await registerCustomer(api, 'sdk-list-2', generateCnpj({ version: 2 })),
    ];
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();

    const listed = await runInProject<Listed>(
      project,
      'mjs',
      `
      import { PartnerClient, PartnerApiError } from '${SDK_PACKAGE}';
      const client = new PartnerClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
      const ids = async (list) => (await list.toArray()).map((w) => w.id);
      const out = { withdrawalPages: [] };
      out.withdrawals = await ids(client.withdrawals.list({ limit: 1 }));
      out.withdrawalsOfA = await ids(client.withdrawals.list({ document: process.env.A, limit: 2 }));
      for await (const page of client.withdrawals.list({ limit: 3 }).pages()) out.withdrawalPages.push({ size: page.withdrawals.length, last: page.next_cursor === null });
      out.sinceAnHourAgo = await ids(client.withdrawals.list({ created_from: process.env.AN_HOUR_AGO }));
      out.fromTomorrow = await ids(client.withdrawals.list({ created_from: new Date(Date.now() + 86_400_000).toISOString() }));
      out.untilLastYear = await ids(client.withdrawals.list({ created_to: new Date(Date.now() - 365 * 86_400_000).toISOString() }));
      out.pixKeys = (await client.pixKeys.list({ limit: 1 }).toArray()).map((k) => k.document);
      out.pixKeyOfB = (await client.pixKeys.list({ document: process.env.B }).toArray()).map((k) => k.document);
      out.customers = await ids(client.customers.list({ limit: 2 }));
      out.customerByExternalId = (await client.customers.list({ external_id: 'sdk-list-1' }).toArray()).map((c) => c.metadata.external_id);
      out.customerByCnpj = await ids(client.customers.list({ cnpj: process.env.CNPJ }));
      out.credited = await client.balances.get(process.env.C);
      out.held = await client.balances.get(process.env.A);
      out.unknownUser = await client.balances.get(process.env.UNKNOWN).then(
        () => 'answered',
        (e) => ({ isApiError: e instanceof PartnerApiError, status: e.status, code: e.code }));
      console.log(JSON.stringify(out));`,
      { BASE_URL: gatewayUrl(), API_KEY: apiKey, A: a, B: b, C: c, CNPJ: cnpj, AN_HOUR_AGO: anHourAgo, UNKNOWN: newCpf() },
    );

    // Every page chained to the end: each item once, newest first.
    const newestFirst = [...all].reverse();
    expect(listed.withdrawals).toEqual(newestFirst);
    expect(listed.withdrawalPages).toEqual([
      { size: 3, last: false },
      { size: 1, last: true },
    ]);
    expect(listed.withdrawalsOfA).toEqual([...ofA].reverse());
    // created_from / created_to are date-times (ISO 8601 with an offset), inclusive.
    expect(listed.sinceAnHourAgo).toEqual(newestFirst);
    expect(listed.fromTomorrow).toEqual([]);
    expect(listed.untilLastYear).toEqual([]);
    expect(listed.pixKeys).toEqual([b, a]);
    expect(listed.pixKeyOfB).toEqual([b]);
    expect(listed.customers).toEqual([...customers].reverse());
    expect(listed.customerByExternalId).toEqual(['sdk-list-1']);
    expect(listed.customerByCnpj).toEqual([customers[1]]);

    expect(listed.credited).toEqual({
      document: c,
      available_usdt_micros: 5 * USDT,
      held_usdt_micros: 0,
      available_brl_cents: 0,
      blocked_brl_cents: 0,
    });
    // Each of A's three withdrawals took amount + fee from what is available; it stays held until it is final.
    const perWithdrawal = USDT + LOW_FEE;
    expect(listed.held.available_usdt_micros).toBe(10 * USDT - 3 * perWithdrawal);
    expect([0, 1, 2, 3].map((n) => n * perWithdrawal)).toContain(listed.held.held_usdt_micros);
    expect(listed.unknownUser).toEqual({ isApiError: true, status: 404, code: 'user_not_found' });
  });
});
