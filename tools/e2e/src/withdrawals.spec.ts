import type { PartnerApiClient, Schemas } from '@partner/api-client';
import {
  ApiClient,
  FAILING_ADDRESS,
  newCpf,
  pollUntil,
  USDT_WITHDRAWAL_VIEW_FIELDS,
  VALID_ADDRESS,
  withdrawalRequest,
} from '@partner/testing';
import { balanceOf, newPartner, newUser } from './support/sandbox';

// Withdrawals through the typed client (libs/api-client): requests and answers are typed by the OpenAPI
// document, so a change to the document that breaks them fails compilation. Malformed input, which the
// typed client refuses to compile, goes through the raw ApiClient.

const USDT = 1_000_000;
const MATIC_MEDIUM_FEE = 50_000;
const ETH_HIGH_FEE = 6_000_000;

type WithdrawalRequest = Schemas['CreateUsdtWithdrawalRequest'];
type WithdrawalEvent = Schemas['UsdtWithdrawalEvent'];

const body = (document: string, overrides: Partial<WithdrawalRequest> = {}): WithdrawalRequest =>
  withdrawalRequest(document, { usdtmicros: USDT, fee_choice: 'MEDIUM', ...overrides });

const withdraw = (client: PartnerApiClient, request: WithdrawalRequest) => client.POST('/partner/v1/withdrawals/usdt', { body: request });

/** The withdrawal's events (delivered or not), oldest first; `data` is typed as a withdrawal. */
async function eventsOf(client: PartnerApiClient, id: number, delivered?: boolean): Promise<WithdrawalEvent[]> {
  const { data, error, response } = await client.GET('/partner/v1/events', {
    params: { query: { type: 'usdt_withdrawal', limit: 1000, ...(delivered === undefined ? {} : { delivered }) } },
  });
  if (!data) throw new Error(`events listing failed: ${response.status} ${JSON.stringify(error)}`);
  return data.events.filter((e): e is WithdrawalEvent => e.type === 'usdt_withdrawal' && e.resource_id === String(id));
}

/**
 * What GET /partner/v1/withdrawals/usdt/{id} answers for the withdrawal as an event's data shows it (the
 * stack's hot wallets all pay: no withdrawal waits for a reason).
 */
const viewOf = ({ idempotency_key: _key, fee_micros, ...data }: Record<string, unknown>) => ({
  ...data,
  fee_usdtmicros: fee_micros,
  waiting_reason: null,
});
const getWithdrawal = (api: ApiClient, id: number | string) => api.get(`/partner/v1/withdrawals/usdt/${id}`);

describe('USDT withdrawals end to end', () => {
  it('goes created, sent, settled in the feed; delivered events leave the inbox', async () => {
    const { api, client } = await newPartner();
    const document = await newUser(api, 10 * USDT);

    const created = await withdraw(client, body(document));
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: expect.any(Number) });
    const id = created.data?.id as number;
    // Read back at once: whatever state it has reached, it is a withdrawal of this partner's, every field typed.
    const early = await getWithdrawal(api, id);
    expect(early.status).toBe(200);
    expect(Object.keys(early.body).sort()).toEqual([...USDT_WITHDRAWAL_VIEW_FIELDS].sort());

    const mine = await pollUntil(
      'created, sent and settled events',
      () => eventsOf(client, id, false),
      (events) => events.length === 3,
    );
    expect(mine.map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
    // The early read is exactly the withdrawal as the event of its state shows it.
    expect(early.body).toEqual(viewOf({ ...mine.find((e) => e.state === early.body.state)?.data }));
    // Settled: read again, it carries the transaction hash it was sent with and its last change's time.
    const settled = await getWithdrawal(api, id);
    expect({ status: settled.status, body: settled.body }).toEqual({
      status: 200,
      body: {
        id,
        document,
        address: VALID_ADDRESS,
        network: 'MATIC',
        fee_choice: 'MEDIUM',
        usdtmicros: USDT,
        fee_usdtmicros: MATIC_MEDIUM_FEE,
        state: 'settled',
        tx_hash: mine[1].data.tx_hash,
        block_number: mine[2].data.block_number,
        failure_reason: null,
        beneficiary: null,
        report_id: null,
        waiting_reason: null,
        created_at: mine[0].data.created_at,
        last_updated_at: mine[2].data.last_updated_at,
      },
    });
    expect(settled.body.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    for (const time of [settled.body.created_at, settled.body.last_updated_at]) expect(Number.isInteger(time)).toBe(true);
    expect(settled.body.last_updated_at).toBeGreaterThanOrEqual(settled.body.created_at as number);
    for (const e of mine) {
      expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isInteger(e.created_at)).toBe(true);
      expect(e.delivered).toBe(false);
      expect(e.data).toMatchObject({
        id,
        document,
        usdtmicros: USDT,
        fee_micros: MATIC_MEDIUM_FEE,
        network: 'MATIC',
        fee_choice: 'MEDIUM',
        state: e.state,
      });
    }
    expect(mine[0].data.tx_hash).toBeNull();
    expect(mine[1].data.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(mine[2].data.tx_hash).toBe(mine[1].data.tx_hash);
    expect(mine[2].data.block_number).toEqual(expect.any(Number));
    // Settled: amount and fee have left the account for good.
    expect(await balanceOf(api, document)).toBe(10 * USDT - USDT - MATIC_MEDIUM_FEE);

    for (const e of mine) {
      const marked = await client.PATCH('/partner/v1/events/{id}', { params: { path: { id: e.id } } });
      expect(marked.response.status).toBe(200);
      expect(marked.data).toEqual({});
    }
    expect(await eventsOf(client, id, false)).toEqual([]);
    expect((await eventsOf(client, id, true)).map((e) => e.delivered)).toEqual([true, true, true]);
    // Marking again is harmless.
    expect((await client.PATCH('/partner/v1/events/{id}', { params: { path: { id: mine[0].id } } })).response.status).toBe(200);
  });

  it('fails a withdrawal whose destination the token refuses before anything is signed, and gives the held funds back', async () => {
    const { api, client } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const created = await withdraw(client, body(document, { address: FAILING_ADDRESS, network: 'ETH', fee_choice: 'HIGH' }));
    expect(created.response.status).toBe(201);
    const id = created.data?.id as number;
    // The pre-flight refuses it within a payout round (100 ms here): the hold may already be released by now,
    // so the balance is read once the failure is reported.
    const events = await pollUntil(
      'failed event',
      () => eventsOf(client, id),
      (all) => all.some((e) => e.state === 'failed'),
    );
    // The pre-flight simulation caught it: never signed, never sent, no gas spent on it.
    expect(events.map((e) => e.state)).toEqual(['created', 'failed']);
    expect(events[1].data.failure_reason).toBe('destination_refused');
    expect(await balanceOf(api, document)).toBe(10 * USDT);
    const failed = await getWithdrawal(api, id);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual(viewOf({ ...events[1].data }));
    expect(failed.body).toMatchObject({
      state: 'failed',
      failure_reason: 'destination_refused',
      tx_hash: null,
      fee_usdtmicros: ETH_HIGH_FEE,
    });
  });

  it('replays an idempotency key: same request gives 200 and the same id, once debited', async () => {
    const { api, client } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const request = body(document);
    const first = await withdraw(client, request);
    const second = await withdraw(client, request);
    expect(first.response.status).toBe(201);
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual({ id: first.data?.id });
    expect(await balanceOf(api, document)).toBe(10 * USDT - USDT - MATIC_MEDIUM_FEE);

    const reused = await withdraw(client, { ...request, usdtmicros: 2 * USDT });
    expect(reused.response.status).toBe(422);
    expect(reused.error).toMatchObject({ error: 'idempotency_key_reused' });
  });

  it('replays a retry whose address is the same destination in another letter case: 200, the same id, once debited', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const request = body(document);
    const first = await api.post('/partner/v1/withdrawals/usdt', request);
    expect(first.status).toBe(201);

    for (const address of [VALID_ADDRESS.toLowerCase(), `0x${VALID_ADDRESS.slice(2).toUpperCase()}`]) {
      const retry = await api.post('/partner/v1/withdrawals/usdt', { ...request, address });
      expect({ address, status: retry.status, body: retry.body }).toEqual({ address, status: 200, body: { id: first.body.id } });
    }
    expect(await balanceOf(api, document)).toBe(10 * USDT - USDT - MATIC_MEDIUM_FEE);
    const other = await api.post('/partner/v1/withdrawals/usdt', { ...request, address: FAILING_ADDRESS });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: 'idempotency_key_reused' });
  });

  it('creates exactly one withdrawal for concurrent duplicates', async () => {
    const { api, client } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const request = body(document);
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(client, request)));
    const ids = new Set(answers.map((a) => a.data?.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.response.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.response.status === 200)).toHaveLength(19);
    expect(await balanceOf(api, document)).toBe(10 * USDT - USDT - MATIC_MEDIUM_FEE);
  });

  it('never overdraws under concurrent withdrawals', async () => {
    const { api, client } = await newPartner();
    const each = USDT + MATIC_MEDIUM_FEE;
    const document = await newUser(api, 5 * each + 10);
    const answers = await Promise.all(Array.from({ length: 12 }, () => withdraw(client, body(document))));
    expect(answers.filter((a) => a.response.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.response.status !== 201);
    expect(refused.map((a) => [a.response.status, a.error?.error])).toEqual(Array(7).fill([422, 'insufficient_funds']));
    expect(await balanceOf(api, document)).toBe(10);
  });

  describe('GET /partner/v1/withdrawals/usdt/{id}: errors in the {error} body shape', () => {
    it("404 not_found for an unknown id, an id past any issued, and another partner's withdrawal", async () => {
      const { api } = await newPartner();
      const document = await newUser(api, 10 * USDT);
      const created = await api.post('/partner/v1/withdrawals/usdt', body(document));
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const other = (await newPartner('another partner')).api;
      for (const [client, path] of [
        [api, id + 1_000_000],
        [api, 2_147_483_648],
        [api, Number.MAX_SAFE_INTEGER],
        [other, id],
      ] as const) {
        const res = await getWithdrawal(client, path);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: expect.objectContaining({ error: 'not_found', message: expect.any(String) }),
        });
      }
      expect((await getWithdrawal(api, id)).status).toBe(200);
    });

    it('400 invalid_request field id for an id that is not a positive integer in decimal digits', async () => {
      const { api } = await newPartner();
      for (const segment of ['0', '-1', '01', '1.5', '1e3', 'abc', '9007199254740993', '99999999999999999999999']) {
        const res = await getWithdrawal(api, segment);
        expect({ segment, status: res.status, body: res.body }).toEqual({
          segment,
          status: 400,
          body: expect.objectContaining({
            error: 'invalid_request',
            field: 'id',
            message: expect.stringMatching(/^id must be a positive integer/),
          }),
        });
      }
    });
  });

  describe('documented errors, in the {error} body shape', () => {
    let partner: Awaited<ReturnType<typeof newPartner>>;
    let document: string;
    beforeAll(async () => {
      partner = await newPartner();
      document = await newUser(partner.api, 10 * USDT);
    });

    /** Any body, malformed ones included: through the raw client. */
    const expectError = async (request: unknown, status: number, error: string, field?: string) => {
      const res = await partner.api.post('/partner/v1/withdrawals/usdt', request);
      expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
      expect(typeof res.body.message).toBe('string');
      if (field) expect(res.body.field).toBe(field);
    };

    it('404 user_not_found when no user has the document', async () => {
      const res = await withdraw(partner.client, body(newCpf()));
      expect(res.response.status).toBe(404);
      expect(res.error).toMatchObject({ error: 'user_not_found', message: expect.any(String) });
    });

    it.each([
      ['not hex', '0xZZ8dA6BF26964aF9D7eEd9e03E53415D37aA9604'],
      ['too short', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA960'],
      ['bad EIP-55 checksum', '0xd8dA6BF26964aF9D7eEd9e03E53415D37AA96045'],
      ['wrong checksum case', '0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
      ['zero address', '0x0000000000000000000000000000000000000000'],
      ['not a string', 42],
    ])('400 invalid_address: %s', (_label, address) =>
      expectError(body(document, { address: address as string }), 400, 'invalid_address', 'address'),
    );

    it('422 insufficient_funds when amount plus fee exceeds the balance', async () => {
      const res = await withdraw(partner.client, body(document, { usdtmicros: 10 * USDT }));
      expect(res.response.status).toBe(422);
      expect(res.error).toMatchObject({ error: 'insufficient_funds', message: expect.any(String) });
      expect(await balanceOf(partner.api, document)).toBe(10 * USDT);
    });

    it.each([
      ['zero', 0],
      ['negative', -5],
      ['fractional', 1.5],
      ['a string', '1000000'],
      ['below the minimum', 9_999],
      ['above the maximum', 1_000_000_000_001],
      ['null', null],
    ])('422 invalid_amount: %s', (_label, usdtmicros) =>
      expectError({ ...body(document), usdtmicros }, 422, 'invalid_amount', 'usdtmicros'),
    );

    it.each([['ULTRA'], ['low'], [1], [null]])('422 invalid_fee: %p', (fee_choice) =>
      expectError({ ...body(document), fee_choice }, 422, 'invalid_fee', 'fee_choice'),
    );

    it('400 invalid_request naming the field for malformed input no documented code covers', async () => {
      await expectError({ ...body(document), network: 'BTC' }, 400, 'invalid_request', 'network');
      await expectError(body('12345678900'), 400, 'invalid_request', 'document');
      await expectError(body(document, { idempotency_key: 'not-a-uuid' }), 400, 'invalid_request', 'idempotency_key');
      await expectError({ ...body(document), extra: true }, 400, 'invalid_request', 'extra');
      const { network: _omit, ...missing } = body(document);
      await expectError(missing, 400, 'invalid_request', 'network');
    });

    it('400 invalid_request for a body that is not JSON, not an object, or missing', async () => {
      for (const raw of ['{"document":', '[]', '"text"', '']) {
        const res = await partner.api.request('POST', '/partner/v1/withdrawals/usdt', raw, { 'content-type': 'application/json' });
        expect({ status: res.status, error: res.body?.error }).toEqual({ status: 400, error: 'invalid_request' });
      }
    });

    it('nothing is debited by any refused request', async () => {
      expect(await balanceOf(partner.api, document)).toBe(10 * USDT);
    });
  });
});
