import { ApiProperty } from '../../api-documentation';
import { IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { CreateBusinessCustomerRequest } from './create-business-customer.request';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * What an `Idempotency-Key` header of POST /partner/v1/customers/business may hold (docs/api.md: "Headers"):
 * 1-255 visible ASCII characters (`!` to `~`), as long as Stripe's keys. No space, so a header sent twice
 * (which the HTTP server joins with ", ") is refused rather than read as one key.
 */
export const IDEMPOTENCY_KEY_HEADER_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_HEADER_RULE = '1-255 visible ASCII characters (! to ~, no space)';

/** The constraints of an optional idempotency key taken from that header, one list for both classes below. */
function IsOptionalIdempotencyKey(): PropertyDecorator {
  const constraints = [
    IsOptional(),
    IsString(),
    Matches(IDEMPOTENCY_KEY_HEADER_PATTERN, { message: `idempotency_key must be ${IDEMPOTENCY_KEY_HEADER_RULE}` }),
  ];
  return (target, property) => constraints.forEach((constraint) => constraint(target, property));
}

/** The header's value alone, as the gateway checks it before sending the command (which the service checks again). */
export class IdempotencyKeyInput {
  @IsOptionalIdempotencyKey()
  idempotency_key?: string;
}

export class CreateBusinessCustomerCommand extends CreateBusinessCustomerRequest {
  @IsUUID()
  partner_id!: PartnerId;

  /**
   * The request's Idempotency-Key header, when it had one: the command's only, never the HTTP body's (whose
   * class refuses it as an unknown field). Absent: the registration is not idempotent but for its CNPJ.
   */
  @IsOptionalIdempotencyKey()
  idempotency_key?: string;
}

/** The HTTP answer of POST /partner/v1/customers/business (201 registered; 200 the replay of an Idempotency-Key). */
export class CreateBusinessCustomerResult {
  @ApiProperty({ format: 'uuid', description: "The customer's id; its business_customer event carries it as resource_id" })
  id!: string;
}

/** The reply of the customers service: the id, and whether it replays the idempotency key's first answer (the gateway's Idempotent-Replayed). */
export class CreateBusinessCustomerCommandResult extends CreateBusinessCustomerResult {
  replayed!: boolean;
}
