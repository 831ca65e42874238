import { EventPayload, eventKeyOf, EventTopic, requestKeyOf, RequestPayload } from './contract-map';
import { authenticatedPartnerId } from './tenancy/partner-id';
import { Topics } from './topics';

// Ordering depends on these keys: each value is the literal format the call sites built by hand before
// the contracts owned them, so a change here moves messages to other partitions and must be deliberate.
const partner = authenticatedPartnerId('7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10');
const document = '52998224725';

/** An event with only the fields its key reads (the rest of the payload plays no part in it). */
const eventOf = <T extends EventTopic>(_topic: T, fields: object): EventPayload<T> => fields as EventPayload<T>;

describe('request keys', () => {
  it("keys a user's commands and balance reads by partner and CPF", () => {
    const user = { partner_id: partner, document };
    expect(requestKeyOf(Topics.WithdrawalsUpsertUser, user)).toBe(`${partner}:${document}`);
    expect(requestKeyOf(Topics.PixKeysUpsertUser, user)).toBe(`${partner}:${document}`);
    expect(requestKeyOf(Topics.InflowsUpsertUser, user)).toBe(`${partner}:${document}`);
    expect(requestKeyOf(Topics.WithdrawalsGetBalance, user)).toBe(`${partner}:${document}`);
    expect(requestKeyOf(Topics.WithdrawalsCreditAccount, { ...user, usdt_micros: 1, idempotency_key: 'k-1', reference: 'r' })).toBe(
      `${partner}:${document}`,
    );
    expect(requestKeyOf(Topics.PixKeysCreate, { ...user, idempotency_key: 'k-2' })).toBe(`${partner}:${document}`);
    expect(requestKeyOf(Topics.PixKeysDelete, { ...user, idempotency_key: 'k-3' })).toBe(`${partner}:${document}`);
    expect(requestKeyOf(Topics.InflowsSimulatePixIn, { ...user, amount_cents: 100 })).toBe(`${partner}:${document}`);
  });

  it('keys a withdrawal by partner and idempotency key, a business customer by partner and CNPJ', () => {
    const withdrawal = {
      partner_id: partner,
      document,
      idempotency_key: 'f3b8c1d2',
      address: '0x0',
      network: 'ETH' as const,
      fee_choice: 'LOW' as const,
      usdtmicros: 10_000,
    };
    expect(requestKeyOf(Topics.WithdrawalsCreate, withdrawal)).toBe(`${partner}:f3b8c1d2`);
    const customer = { partner_id: partner, cnpj: '12ABC34501DE35' } as RequestPayload<typeof Topics.CustomersCreateBusiness>;
    expect(requestKeyOf(Topics.CustomersCreateBusiness, customer)).toBe(`${partner}:12ABC34501DE35`);
  });

  it('keys feed acknowledgements by partner', () => {
    expect(requestKeyOf(Topics.EventsMarkDelivered, { partner_id: partner, event_id: 'e-1' })).toBe(partner);
    expect(requestKeyOf(Topics.EventsAck, { partner_id: partner, ids: ['e-1'] })).toBe(partner);
  });

  it("keys an operator's step on a finding by finding, a payout's cancel by withdrawal", () => {
    const asked = { note: 'n', by: 'ops (adm_1)', asked_at: '2026-01-01T00:00:00.000Z' };
    expect(requestKeyOf(Topics.WithdrawalsFindingStep, { ...asked, finding_id: 9, step: 'resolve' })).toBe('finding:9');
    expect(requestKeyOf(Topics.WithdrawalsCancelPayout, { ...asked, withdrawal_id: 42 })).toBe('withdrawal:42');
  });

  it('leaves reads unkeyed, so they spread over partitions', () => {
    expect(requestKeyOf(Topics.WithdrawalsGet, { partner_id: partner, id: 1 })).toBeNull();
    expect(requestKeyOf(Topics.PixKeysGet, { partner_id: partner, document })).toBeNull();
    expect(requestKeyOf(Topics.CustomersGet, { partner_id: partner, id: 'c-1' })).toBeNull();
    expect(requestKeyOf(Topics.EventsList, { partner_id: partner })).toBeNull();
    expect(requestKeyOf(Topics.InflowsList, { partner_id: partner })).toBeNull();
    for (const ping of [Topics.WithdrawalsPing, Topics.EventsPing, Topics.PixKeysPing, Topics.CustomersPing, Topics.InflowsPing]) {
      expect(requestKeyOf(ping, { sent_at: '2026-01-01T00:00:00.000Z' })).toBeNull();
    }
  });
});

describe('event keys', () => {
  it("keys each resource's events by the resource", () => {
    expect(
      eventKeyOf(
        Topics.WithdrawalStateChanged,
        eventOf(Topics.WithdrawalStateChanged, { partner_id: partner, resource_id: '42', resource: { id: 42 } }),
      ),
    ).toBe('usdt_withdrawal:42');
    expect(
      eventKeyOf(
        Topics.PixInStateChanged,
        eventOf(Topics.PixInStateChanged, { partner_id: partner, resource_id: 'E12345678202601011200abcdefghijk' }),
      ),
    ).toBe('pix_in:E12345678202601011200abcdefghijk');
    expect(
      eventKeyOf(
        Topics.BusinessCustomerRegistered,
        eventOf(Topics.BusinessCustomerRegistered, { partner_id: partner, resource_id: 'c-7' }),
      ),
    ).toBe('business_customer:c-7');
  });

  it("keys a Pix key's events by its user, so a canceled key and its successor stay in order", () => {
    expect(
      eventKeyOf(
        Topics.PixKeyStateChanged,
        eventOf(Topics.PixKeyStateChanged, { partner_id: partner, resource_id: 'k-1', resource: { id: 'k-1', document } }),
      ),
    ).toBe(`pix_key:${partner}:${document}`);
  });

  it('keys a credit by account, a payment by end-to-end id, a revocation by key id', () => {
    const credit = {
      partner_id: partner,
      document,
      usdt_micros: 1,
      idempotency_key: 'k',
      reference: 'r',
      available_usdt_micros: 1,
      credited_at: '2026-01-01T00:00:00Z',
    };
    expect(eventKeyOf(Topics.AccountCredited, credit)).toBe(`account:${partner}:${document}`);
    expect(eventKeyOf(Topics.GatewayApiKeyRevoked, { partner_id: partner, key_id: 'key-9', revoked_at: '2026-01-01T00:00:00Z' })).toBe(
      'key-9',
    );
    expect(eventKeyOf(Topics.SpiPixReceived, eventOf(Topics.SpiPixReceived, { partner_id: partner, end_to_end_id: 'E1' }))).toBe('E1');
  });
});
