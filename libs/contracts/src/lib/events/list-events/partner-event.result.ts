import { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '../../api-documentation';
import { BusinessCustomerSnapshot } from '../../customers/business-customer-registered/business-customer-registered.event';
import { FeedEventType } from '../../feed/feed-event.event';
import { PixInSnapshot } from '../../inflows/pix-in-state-changed/pix-in-state-changed.event';
import { PIX_IN_STATUSES } from '../../inflows/pix-in.types';
import { PixInRefundSnapshot } from '../../inflows/pix-in-refund-state-changed/pix-in-refund-state-changed.event';
import { PIX_IN_REFUND_STATUSES } from '../../inflows/refund-pix-in/pix-in-refund.types';
import { PIX_KEY_STATES, PixKeySnapshot } from '../../pix-keys/pix-key-state-changed/pix-key-state-changed.event';
import { PIX_KEY_CLAIM_EVENTS, PixKeyClaimView } from '../../pix-keys/pix-key-claim-changed/pix-key-claim-changed.event';
import { UsdtWithdrawalSnapshot } from '../../withdrawals/withdrawal-state-changed/withdrawal-state-changed.event';
import { WITHDRAWAL_STATES } from '../../withdrawals/withdrawal.types';

/**
 * The schema of one event of a partner's feed, per `type`: the envelope every event shares, with the
 * `state`s and the `data` (the resource right after the change) of that type. Only the OpenAPI document
 * and typed clients see these classes; the events service builds events as `PartnerEvent` values.
 */
function partnerEventOf<T extends FeedEventType, S extends string, D>(type: T, states: readonly S[], data: Type<D>) {
  class PartnerEventOfType {
    @ApiProperty({ format: 'uuid', description: "The event's id, unique forever: de-duplicate with it" })
    id!: string;

    @ApiProperty({ type: 'integer', minimum: 1, description: "The event's number in your feed: 1, 2, 3... with no gap and no repeat" })
    sequence!: number;

    @ApiProperty({ enum: [type], description: 'What kind of resource changed' })
    type!: T;

    @ApiProperty({ enum: states, description: 'What this event reports' })
    state!: S;

    @ApiProperty({ description: 'Which resource changed' })
    resource_id!: string;

    @ApiProperty({ type: 'integer', description: 'Unix seconds when the change happened' })
    created_at!: number;

    @ApiProperty({ description: 'Whether you acknowledged it' })
    delivered!: boolean;

    @ApiProperty({
      type: 'string',
      nullable: true,
      description: 'The X-Request-Id of your call that caused this event; null when none did (the chain, the Pix network, a timer)',
    })
    request_id!: string | null;

    @ApiProperty({ type: () => data, description: 'The resource as it was right after the change' })
    data!: D;
  }
  return PartnerEventOfType;
}

@ApiSchema({ description: 'A USDT withdrawal changed state; resource_id is its id' })
export class UsdtWithdrawalEvent extends partnerEventOf('usdt_withdrawal', WITHDRAWAL_STATES, UsdtWithdrawalSnapshot) {}

/** A pix_key event's data: the key, and on a claim's events (claim_received...) the claim. */
class PixKeyEventData extends PixKeySnapshot {
  @ApiPropertyOptional({ type: () => PixKeyClaimView, description: "Only on a claim's events (state claim_*): the claim" })
  claim?: PixKeyClaimView;
}

@ApiSchema({ description: "A Pix key changed state, or a claim of it did (state claim_*); resource_id is the key's id" })
export class PixKeyEvent extends partnerEventOf('pix_key', [...PIX_KEY_STATES, ...PIX_KEY_CLAIM_EVENTS], PixKeyEventData) {}

@ApiSchema({ description: 'A Pix inflow changed status; resource_id is its end-to-end id' })
export class PixInEvent extends partnerEventOf('pix_in', PIX_IN_STATUSES, PixInSnapshot) {}

@ApiSchema({ description: "A refund of a Pix inflow changed status; resource_id is the refund's id" })
export class PixInRefundEvent extends partnerEventOf('pix_in_refund', PIX_IN_REFUND_STATUSES, PixInRefundSnapshot) {}

@ApiSchema({ description: "A business customer was registered; resource_id is the customer's id" })
export class BusinessCustomerEvent extends partnerEventOf('business_customer', ['registered'], BusinessCustomerSnapshot) {}

/** Every event type's schema, by the `type` it carries (a new type is one more entry here). */
export const PARTNER_EVENT_SCHEMAS: Record<FeedEventType, Type<unknown>> = {
  usdt_withdrawal: UsdtWithdrawalEvent,
  pix_key: PixKeyEvent,
  pix_in: PixInEvent,
  pix_in_refund: PixInRefundEvent,
  business_customer: BusinessCustomerEvent,
};

/** An event of any type, told apart by `type` (oneOf + discriminator in the OpenAPI document). */
export const partnerEventSchema = () => ({
  oneOf: Object.values(PARTNER_EVENT_SCHEMAS).map((schema) => ({ $ref: getSchemaPath(schema) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(Object.entries(PARTNER_EVENT_SCHEMAS).map(([type, schema]) => [type, getSchemaPath(schema)])),
  },
});
