import { validateContract } from '@partner/validation';
import { EventTopic, payloadClassOf } from '../contract-map';
import { LIST_EVENTS_EXAMPLE } from '../events/list-events/list-events.example';
import { Topics } from '../topics';

// The feed events' snapshots are validated classes: a consumer (the events projection, the inflows
// replica of Pix keys) gets a checked resource from the same validation as the envelope, not a bag to
// check by hand. The OpenAPI example's data of each type is a snapshot as producers make them.
const TOPIC_OF_TYPE: Record<string, EventTopic> = {
  usdt_withdrawal: Topics.WithdrawalStateChanged,
  pix_key: Topics.PixKeyStateChanged,
  pix_in: Topics.PixInStateChanged,
  business_customer: Topics.BusinessCustomerRegistered,
};

const eventOf = (type: string) => {
  const example = LIST_EVENTS_EXAMPLE.events.find((e) => e.type === type);
  if (!example) throw new Error(`no example of ${type}`);
  // A pix_in event's snapshot also names the receiving user, which the partners' view leaves out.
  const resource: Record<string, unknown> = type === 'pix_in' ? { ...example.data, document: '44056866023' } : { ...example.data };
  return {
    event_id: '083184ea-7464-4d6f-b488-3b13550f619d',
    partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
    type,
    state: example.state,
    resource_id: example.resource_id,
    occurred_at: '2026-11-22T20:00:00.000Z',
    resource,
  };
};
const check = (type: string, event: object) => validateContract(payloadClassOf(TOPIC_OF_TYPE[type]), event);

describe('feed event snapshots', () => {
  it.each(Object.keys(TOPIC_OF_TYPE))('accepts a %s event as producers make it, keeping its resource as sent', (type) => {
    const event = eventOf(type);
    const checked = check(type, event);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(JSON.parse(JSON.stringify(checked.value))).toEqual(event);
  });

  it.each(Object.keys(TOPIC_OF_TYPE))('refuses a %s event whose resource carries a field its snapshot does not have', (type) => {
    const event = eventOf(type);
    expect(check(type, { ...event, resource: { ...event.resource, surprise: 1 } })).toMatchObject({
      ok: false,
      error: { field: 'resource.surprise' },
    });
  });

  it('refuses a pix_key snapshot without a valid document (what the inflows replica reads)', () => {
    const event = eventOf('pix_key');
    expect(check('pix_key', { ...event, resource: { ...event.resource, document: '12345678900' } })).toMatchObject({
      ok: false,
      error: { field: 'resource.document' },
    });
  });

  it('takes null for a nullable field but not its absence, nor another type', () => {
    const event = eventOf('usdt_withdrawal');
    const { tx_hash: _txHash, ...withoutTxHash } = event.resource;
    expect(check('usdt_withdrawal', { ...event, resource: { ...event.resource, tx_hash: null } }).ok).toBe(true);
    expect(check('usdt_withdrawal', { ...event, resource: withoutTxHash })).toMatchObject({
      ok: false,
      error: { field: 'resource.tx_hash' },
    });
    expect(check('usdt_withdrawal', { ...event, resource: { ...event.resource, usdtmicros: '1000000' } })).toMatchObject({
      ok: false,
      error: { field: 'resource.usdtmicros' },
    });
  });

  it("checks a business customer's nested owners and address", () => {
    const event = eventOf('business_customer');
    const [owner] = event.resource.owners as Array<Record<string, unknown>>;
    const badOwner = { ...owner, ownership: { ownership_type: 'nope', ownership_bps: 1 } };
    expect(check('business_customer', { ...event, resource: { ...event.resource, owners: [badOwner] } })).toMatchObject({
      ok: false,
      error: { field: 'resource.owners.0.ownership.ownership_type' },
    });
    expect(
      check('business_customer', {
        ...event,
        resource: { ...event.resource, address: { ...(event.resource.address as object), state: 'XX' } },
      }),
    ).toMatchObject({ ok: false, error: { field: 'resource.address.state' } });
  });
});
