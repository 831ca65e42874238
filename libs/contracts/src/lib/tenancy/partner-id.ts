declare const partnerIdBrand: unique symbol;

/**
 * A partner's id that an authenticated source vouched for: the gateway's API-key authentication, or a
 * message payload validated at a service's Kafka boundary (only the gateway's authenticated requests
 * put one there). Repositories that touch a partner's data take this, never a bare string, so a caller
 * cannot scope a query with an id it made up or read from the request body.
 */
export type PartnerId = string & { readonly [partnerIdBrand]: true };
