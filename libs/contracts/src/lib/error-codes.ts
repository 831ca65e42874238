import { CodedValidationOptions, withCode } from '@partner/validation';

/**
 * The error codes of each endpoint family (docs/api.md: "Errors", and each family's section), as lists
 * so that a code read at run time can be recognised without a cast, and as unions (`FamilyErrorCode`)
 * so that a code outside its family does not compile: a contract class names its codes through its
 * family's helper (`codesOf`), a handler's `fail` takes its topic's (contract-map.ts), and the gateway's
 * `STATUS_OF_CODE` is total over `ErrorCode`.
 */
export const FAMILY_ERROR_CODES = {
  /** POST/GET /partner/v1/withdrawals/usdt... */
  withdrawals: [
    'invalid_request',
    'invalid_address',
    'invalid_amount',
    'invalid_fee',
    'not_found',
    'user_not_found',
    'insufficient_funds',
    'idempotency_key_reused',
    /** The destination is on a screening list: the OFAC SDN copy, the token's blacklist, or the operator's deny list (422). */
    'address_blocked',
    /** Over a limit the operator set (per withdrawal, the user's 24 hours or 30 days, the partner's 24 hours) (422). */
    'limit_exceeded',
    /** The partner's policy asks every withdrawal to name its beneficiary, and this one does not (422). */
    'beneficiary_required',
    /** The partner's policy allows withdrawals only to the user's saved addresses, and this one is not saved (422). */
    'address_not_saved',
    /** The address was saved less than the partner's cool-down ago (422). */
    'address_cooling_down',
    /** A saved address's proof of control: the signature is not the address's of the challenge (422). */
    'invalid_proof',
  ],
  /** /partner/v1/pix-key... (`{status, message}` bodies). */
  pix_keys: [
    'invalid_request',
    'invalid_document',
    'not_found',
    'user_not_found',
    'already_exists',
    /** A key asked for a user with no holder's name on file and none in the request (422). */
    'holder_name_missing',
    /** The holder's name on file is not one DICT takes (422). */
    'holder_name_invalid',
    'idempotency_key_reused',
    /** No claim of that id on the user's key (or another partner's). */
    'claim_not_found',
    /** The claim is no longer waiting for the partner: decided otherwise already, or ended (409). */
    'claim_not_pending',
  ],
  /** /partner/v1/customers/business... */
  business_customers: [
    'invalid_request',
    'invalid_cnpj',
    'invalid_phone',
    'invalid_owner',
    'not_found',
    'already_exists',
    'idempotency_key_reused',
    /** auto_send_owner_sms for an owner whose phone is outside NOTIFY_SMS_COUNTRIES (422). */
    'sms_country_not_allowed',
    /** auto_send_owner_sms past the partner's SMS in 24 hours (NOTIFY_SMS_PER_PARTNER_PER_DAY; 429 with Retry-After). */
    'sms_quota_exceeded',
  ],
  /** /partner/v1/pix-in... (the inflows and their refunds), and POST /sandbox/v1/pix-in. */
  pix_inflows: [
    'invalid_request',
    'invalid_amount',
    'not_found',
    'user_not_found',
    'pix_key_not_registered',
    'idempotency_key_reused',
    'insufficient_funds',
    /** The inflow is not credited (still settling, denied or failed), or a MED case blocks it: nothing of it to return (409). */
    'pix_in_not_refundable',
    /** This refund and the inflow's earlier ones (not failed) would return more than it brought (422). */
    'refund_exceeds_amount',
    /** More than 90 days since the inflow (the Pix rules' window for a devolução) (422). */
    'refund_window_closed',
  ],
  /** /partner/v1/events... */
  events: ['invalid_request', 'not_found'],
  /** GET /partner/v1/users/{document}/balance. */
  users: ['invalid_request', 'user_not_found'],
  /** /admin/v1... on the operator port, and the sandbox's partners and users (thin wrappers over its use cases). */
  operator: [
    'invalid_request',
    'invalid_document',
    'invalid_amount',
    'not_found',
    'partner_not_found',
    'user_not_found',
    'idempotency_key_reused',
    'invalid_transition',
    /** The operator key that asked for a credit cannot approve or reject it (403): dual control. */
    'same_operator',
    /** A closed payment account: closed is final (409). */
    'account_closed',
    /** A payment account with a BRL balance cannot be closed (422). */
    'account_not_empty',
    /** No MED case of that id (404). */
    'med_case_not_found',
    /** The MED case is decided already, or its devolução is under way: only an open case is decided (409). */
    'med_case_not_open',
    /** agree/disagree decide an infraction report, accept/reject a refund request: not the other kind (422). */
    'med_decision_invalid',
  ],
  /** POST /provider/v1/pix/inflows. */
  pix_provider: [
    'invalid_request',
    'invalid_signature',
    'invalid_transition',
    'end_to_end_id_conflict',
    /** No user has the receiving account (another ISPB, an unknown number or type): refused, kept for the operator (422). */
    'account_not_found',
    /** The receiving account is blocked, or its partner disabled: refused, kept for the operator (422). */
    'account_blocked',
    /** The receiving account is closed: refused, kept for the operator (409, as on the operator API). */
    'account_closed',
  ],
} as const;

export type ErrorFamily = keyof typeof FAMILY_ERROR_CODES;
/** The codes a family's routes answer, besides the gateway's own. */
export type FamilyErrorCode<F extends ErrorFamily> = (typeof FAMILY_ERROR_CODES)[F][number];

/**
 * Codes only the gateway answers, on every family: authentication, HTTP framing, rate limits, the
 * services' silence, its own bugs; `invalid_request` and `not_found` too (invalid JSON, an unknown route).
 */
export const GATEWAY_ERROR_CODES = [
  'invalid_request',
  'not_found',
  'unauthorized',
  /** The API key is valid but an operator disabled its partner (403; every family answers it `{error, ...}`). */
  'partner_disabled',
  'payload_too_large',
  'uri_too_long',
  'headers_too_large',
  'unsupported_media_type',
  'rate_limited',
  'not_implemented',
  'service_unavailable',
  'internal_error',
] as const;
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

/** Every error code the system answers: a code outside it does not compile. */
export type ErrorCode = FamilyErrorCode<ErrorFamily> | GatewayErrorCode;

/** Every ErrorCode once, for the guard (and a check that the lists cover the union: see error-codes.spec.ts). */
export const ERROR_CODES: readonly ErrorCode[] = [
  ...new Set<ErrorCode>([...Object.values(FAMILY_ERROR_CODES).flat(), ...GATEWAY_ERROR_CODES]),
];

/** The ErrorCode a value read at run time (a reply off the wire, a stored refusal) is, or undefined. */
export const errorCodeOf = (value: unknown): ErrorCode | undefined => ERROR_CODES.find((code) => code === value);
export const isErrorCode = (value: unknown): value is ErrorCode => errorCodeOf(value) !== undefined;

/**
 * A family's constraint options maker: `const code = codesOf('withdrawals')`, then
 * `@IsIn(FEE_CHOICES, code('invalid_fee', message))`. It takes that family's codes only, so a withdrawal
 * contract cannot name `invalid_document` (a Pix key's) and a typo does not compile.
 */
export const codesOf =
  <F extends ErrorFamily>(_family: F) =>
  <const C extends FamilyErrorCode<F>>(code: C, message?: string): CodedValidationOptions<C> =>
    withCode(code, message);
