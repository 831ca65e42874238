declare const partnerIdBrand: unique symbol;

/**
 * A partner's id that an authenticated source vouched for: the gateway's API-key authentication, or a
 * message payload validated at a service's Kafka boundary (only the gateway's authenticated requests
 * put one there). Repositories that touch a partner's data take this, never a bare string, so a caller
 * cannot scope a query with an id it made up or read from the request body.
 *
 * The brand is a compile-time type only: at run time a PartnerId is the plain string.
 */
export type PartnerId = string & { readonly [partnerIdBrand]: true };

/**
 * The one way to make a PartnerId. Lint (eslint.config.mjs, "PartnerId") allows its call only where an id
 * is vouched for: the gateway's authentication and its operator routes' existence check, repositories
 * parsing rows of their own partner-scoped tables (stored under an id that was a PartnerId), and the test
 * fixtures; `as PartnerId` is refused everywhere. Payload classes declare `partner_id!: PartnerId`:
 * the Kafka boundary's validation (class-validator, as for every field) is where a message earns it.
 */
export function authenticatedPartnerId(id: string): PartnerId {
  return id as PartnerId;
}
