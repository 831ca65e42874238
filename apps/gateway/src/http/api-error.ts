import { ErrorCode, ReplyError } from '@partner/contracts';

/** A failure to answer with a given HTTP status; the filter renders it in the endpoint family's body shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ReplyError<ErrorCode>,
  ) {
    super(detail.message);
  }
}

/**
 * HTTP status of every error code (docs/api.md: "Errors"). Kept in one table so a code means the same
 * status everywhere; total over ErrorCode, so a code without a status does not compile.
 */
export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_address: 400,
  invalid_document: 400,
  invalid_cnpj: 400,
  invalid_phone: 400,
  invalid_owner: 400,
  unauthorized: 401,
  invalid_signature: 401,
  partner_disabled: 403,
  same_operator: 403,
  not_found: 404,
  user_not_found: 404,
  partner_not_found: 404,
  already_exists: 409,
  invalid_transition: 409,
  end_to_end_id_conflict: 409,
  account_closed: 409,
  pix_in_not_refundable: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  invalid_amount: 422,
  invalid_fee: 422,
  insufficient_funds: 422,
  address_blocked: 422,
  limit_exceeded: 422,
  beneficiary_required: 422,
  address_not_saved: 422,
  address_cooling_down: 422,
  invalid_proof: 422,
  idempotency_key_reused: 422,
  pix_key_not_registered: 422,
  account_not_found: 422,
  account_blocked: 422,
  account_not_empty: 422,
  refund_exceeds_amount: 422,
  refund_window_closed: 422,
  holder_name_missing: 422,
  claim_not_found: 404,
  claim_not_pending: 409,
  med_case_not_found: 404,
  med_case_not_open: 409,
  med_decision_invalid: 422,
  holder_name_invalid: 422,
  sms_country_not_allowed: 422,
  rate_limited: 429,
  sms_quota_exceeded: 429,
  headers_too_large: 431,
  not_implemented: 501,
  service_unavailable: 503,
  internal_error: 500,
};

/**
 * The ApiError of a code: a service's refusal, a validation failure (its code one of the lists the
 * contracts library owns, validateCodedContract), or one of the gateway's own. Total: no code falls
 * back to a status, a code outside ErrorCode does not compile.
 */
export const apiErrorOf = (detail: ReplyError<ErrorCode>): ApiError => new ApiError(STATUS_OF_CODE[detail.code], detail);
