import { randomUUID } from 'node:crypto';
import { ApiClient, pollUntil } from '@partner/testing';
import { creditedPix, FeedEvent, listEvents, newPartner, newUser } from './support/sandbox';

// Refunds of Pix inflows (docs/api.md: "Refunds") through the running stack: a sandbox Pix is credited, the
// partner refunds part of it over HTTP, the BRL balance drops at once, the inflows service returns it by a
// devolução through the Pix API test server (tools/pix-api-test-server, scripts/test/run.ts), and the feed
// reports the refund's statuses and the inflow's `partially_returned`.

type Refund = { id: number; status: string; amount_cents: number; reason: string; failure_reason: string | null; return_id: string | null };
type Detail = {
  end_to_end_id: string;
  status: string;
  amount_cents: number;
  refunded_cents: number;
  returned_cents: number;
  refunds: Refund[];
};

const refund = (api: ApiClient, e2e: string, body: Record<string, unknown>) =>
  api.post<{ id: number; status: string; error?: string; message?: string; field?: string }>(`/partner/v1/pix-in/${e2e}/refunds`, body);

const brl = async (api: ApiClient, document: string) =>
  (await api.get<{ available_brl_cents: number }>(`/partner/v1/users/${document}/balance`)).body.available_brl_cents;

describe('refunds of Pix inflows end to end', () => {
  it('refunds part of a credited Pix: 201, the balance debited at once, returned through the provider, reported in the feed', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const e2e = await creditedPix(api, document, 10_000);
    const key = randomUUID();

    const created = await refund(api, e2e, { idempotency_key: key, amount_cents: 2_500, reason: 'order cancelled' });
    expect({ status: created.status, body: created.body }).toEqual({ status: 201, body: { id: expect.any(Number), status: 'created' } });
    expect(await brl(api, document)).toBe(7_500);

    const replay = await refund(api, e2e, { idempotency_key: key, amount_cents: 2_500, reason: 'order cancelled' });
    expect({ status: replay.status, id: replay.body.id, replayed: replay.headers.get('idempotent-replayed') }).toEqual({
      status: 200,
      id: created.body.id,
      replayed: 'true',
    });

    const returned = await pollUntil(
      'the refund returned',
      () => api.get<Detail>(`/partner/v1/pix-in/${e2e}`),
      (r) => r.body.refunds?.[0]?.status === 'success',
    );
    expect(returned.body).toMatchObject({
      end_to_end_id: e2e,
      status: 'partially_returned',
      amount_cents: 10_000,
      refunded_cents: 2_500,
      returned_cents: 2_500,
      refunds: [{ id: created.body.id, amount_cents: 2_500, reason: 'order cancelled', status: 'success', failure_reason: null }],
    });
    expect(returned.body.refunds[0].return_id).toMatch(/^D\d{20}[a-zA-Z0-9]{11}$/);

    const events = await pollUntil(
      'the refund and inflow events',
      () => listEvents(api),
      (all) => all.some((e) => e.type === 'pix_in' && e.state === 'partially_returned'),
    );
    const refundStates = events
      .filter((e: FeedEvent) => e.type === 'pix_in_refund' && e.resource_id === String(created.body.id))
      .map((e) => e.state);
    expect(refundStates).toEqual(['created', 'processing', 'success']);
    // The listing keeps the interface's fields and shows the new status.
    const listed = await api.get<{ pix_in: { end_to_end_id: string; status: string }[] }>('/partner/v1/pix-in');
    expect(listed.body.pix_in.find((p) => p.end_to_end_id === e2e)?.status).toBe('partially_returned');
  });

  it('answers each refusal with its code, nothing debited', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const e2e = await creditedPix(api, document, 1_000);
    const ask = (body: Record<string, unknown>, on = e2e) =>
      refund(api, on, { idempotency_key: randomUUID(), amount_cents: 100, reason: 'customer asked', ...body });

    const over = await ask({ amount_cents: 1_001 });
    expect({ status: over.status, error: over.body.error, field: over.body.field }).toEqual({
      status: 422,
      error: 'refund_exceeds_amount',
      field: 'amount_cents',
    });
    const zero = await ask({ amount_cents: 0 });
    expect({ status: zero.status, error: zero.body.error, field: zero.body.field }).toEqual({
      status: 422,
      error: 'invalid_amount',
      field: 'amount_cents',
    });
    const noReason = await ask({ reason: '' });
    expect({ status: noReason.status, error: noReason.body.error, field: noReason.body.field }).toEqual({
      status: 400,
      error: 'invalid_request',
      field: 'reason',
    });
    const longReason = await ask({ reason: 'x'.repeat(141) });
    expect({ status: longReason.status, field: longReason.body.field }).toEqual({ status: 400, field: 'reason' });
    const badKey = await ask({ idempotency_key: 'not-a-uuid' });
    expect({ status: badKey.status, field: badKey.body.field }).toEqual({ status: 400, field: 'idempotency_key' });
    const badId = await ask({}, 'E123');
    expect({ status: badId.status, field: badId.body.field }).toEqual({ status: 400, field: 'end_to_end_id' });
    const unknown = await ask({}, 'E60701190202611220316ChEFWNP0TTY');
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'not_found' });
    const key = randomUUID();
    expect((await ask({ idempotency_key: key })).status).toBe(201);
    const reused = await ask({ idempotency_key: key, amount_cents: 200 });
    expect({ status: reused.status, error: reused.body.error }).toEqual({ status: 422, error: 'idempotency_key_reused' });

    // Another partner sees no such inflow.
    const other = await newPartner();
    expect((await refund(other.api, e2e, { idempotency_key: randomUUID(), amount_cents: 1, reason: 'x' })).status).toBe(404);
    expect((await other.api.get(`/partner/v1/pix-in/${e2e}`)).status).toBe(404);
    expect(await brl(api, document)).toBe(900);
  });
});
