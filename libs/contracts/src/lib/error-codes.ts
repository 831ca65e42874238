/**
 * Every error code the system answers, in one union: a code outside it does not compile, whether a
 * service's handler answers it (`fail`) or the gateway maps it to a status (`STATUS_OF_CODE` is a
 * `Record<ErrorCode, number>`, so a code added here without a status does not compile either). Each
 * request topic narrows it to the codes that topic may answer (contract-map.ts).
 */
export type ErrorCode =
  /** Malformed input that has no code of its own: any request whose payload fails validation. */
  | 'invalid_request'
  | 'invalid_address'
  | 'invalid_document'
  | 'invalid_cnpj'
  | 'invalid_phone'
  | 'invalid_owner'
  | 'invalid_amount'
  | 'invalid_fee'
  | 'not_found'
  | 'user_not_found'
  | 'already_exists'
  | 'insufficient_funds'
  | 'idempotency_key_reused'
  | 'pix_key_not_registered'
  /** A Pix provider notification that would move an inflow backwards or out of a final status. */
  | 'invalid_transition'
  /** A Pix provider notification whose end_to_end_id is recorded with other details (or for another partner). */
  | 'end_to_end_id_conflict'
  | GatewayErrorCode;

/** Codes only the gateway answers: authentication, HTTP framing, rate limits, the services' silence, its own bugs. */
export type GatewayErrorCode =
  | 'unauthorized'
  /** POST /provider/v1/pix/inflows: X-Pix-Signature missing, malformed, stale (over 300 s) or not the body's HMAC, or no secret configured. */
  | 'invalid_signature'
  /** The API key is valid but an operator disabled its partner (403; every family answers it `{error, ...}`). */
  | 'partner_disabled'
  | 'partner_not_found'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'headers_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'not_implemented'
  | 'service_unavailable'
  | 'internal_error';
