import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorCode, ErrorFamily, FamilyErrorCode, GatewayErrorCode } from '@partner/contracts';
import { STATUS_OF_CODE } from './api-error';
import { ErrorBody, ExistingResourceErrorBody, PixKeyErrorBody } from './error-body.dto';

/**
 * OpenAPI decorators for the answers of a route, so that documenting one is a few lines:
 *
 *   @ApiOperation({ operationId: 'createPixKey', summary: '...' })
 *   @ApiAnswer(202, PixKeyStatusResult, { description: '...', narrow: { status: ['accepted'] } })
 *   @ApiErrors('pix_keys', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, 'invalid_document', 'user_not_found'])
 *
 * Statuses come from STATUS_OF_CODE, the table the error filter answers with, so the document and the
 * answers cannot disagree on a code's status. The e2e suite checks every answer against the document.
 */

/** The body an operation's errors have: `{error, ...}`, or `{status, ...}` on the Pix key family. */
export type ErrorShape = 'error' | 'status';
const shapeOf = (family: ErrorFamily): ErrorShape => (family === 'pix_keys' ? 'status' : 'error');

/** What every authenticated partner route may answer: a bad key, the rate limit, a service that did not answer. */
export const PARTNER_ERRORS = ['unauthorized', 'partner_disabled', 'rate_limited', 'service_unavailable'] as const;

/** What every operator route (/admin/v1) may answer: a bad X-Admin-Key, the operator's rate limit, a dependency down. */
export const OPERATOR_ERRORS = ['unauthorized', 'rate_limited', 'service_unavailable'] as const;

/** What every route with a JSON body may answer before its own validation: bad JSON, too large, not JSON. */
export const JSON_BODY_ERRORS = ['invalid_request', 'payload_too_large', 'unsupported_media_type'] as const;

/** A code's sample: when it is answered, and a body of it. */
interface CodeSample {
  when: string;
  message: string;
  field?: string;
  /** The answer names the resource that exists already: its body is an ExistingResourceErrorBody. */
  id?: string;
}

/** When each code is answered, and a sample of its body, for the document's descriptions and examples; total over ErrorCode. */
const CODES: Record<ErrorCode, CodeSample> = {
  invalid_request: {
    when: 'malformed input: wrong type, missing or unknown field, bad query value or cursor, invalid JSON, text that is not well-formed (a control character, a lone surrogate, over 4096 characters) anywhere',
    message: 'network must be one of ETH, MATIC',
    field: 'network',
  },
  invalid_address: {
    when: 'the destination address is not a valid EVM address (EIP-55 checksum when mixed case)',
    message: 'address must be a non-zero EVM address (0x + 40 hex digits, EIP-55 checksum when mixed case)',
    field: 'address',
  },
  invalid_document: {
    when: 'the CPF (body or path) is not 11 digits with valid check digits',
    message: 'document must be a valid CPF: 11 digits with valid check digits',
    field: 'document',
  },
  invalid_cnpj: {
    when: 'the CNPJ is missing, malformed or has wrong check digits',
    message: 'cnpj is invalid: 14 characters, numeric or alphanumeric, with valid check digits',
    field: 'cnpj',
  },
  invalid_phone: {
    when: "the company's or an owner's phone is not a valid E.164 number",
    message: 'owners.0.phone is invalid: an E.164 number such as +5511987654321',
    field: 'owners.0.phone',
  },
  invalid_owner: {
    when: "an owner's CPF is invalid",
    message: 'owners.0.document is invalid: the owner CPF must be 11 digits with valid check digits',
    field: 'owners.0.document',
  },
  sms_country_not_allowed: {
    when: "auto_send_owner_sms is true and an owner's phone is a number of a country SMS are not sent to (Brazil only by default, the operator's NOTIFY_SMS_COUNTRIES); nothing is registered",
    message:
      'owners.1.phone is a number of US: owners are sent SMS only at numbers of BR; give a number there, or register without auto_send_owner_sms',
    field: 'owners.1.phone',
  },
  sms_quota_exceeded: {
    when: "auto_send_owner_sms would send more SMS than the partner's quota in 24 hours (1,000 by default, the operator's NOTIFY_SMS_PER_PARTNER_PER_DAY); nothing is registered: retry after Retry-After seconds, or register without auto_send_owner_sms",
    message:
      'this registration would send 2 SMS; 999 of the 1000 a partner may send in 24 hours are used: retry in 3600 s, or register without auto_send_owner_sms',
  },
  unauthorized: {
    when: 'missing or unknown key (after too many unknown keys from one address: 429 rate_limited)',
    message: 'missing or unknown X-API-Key',
  },
  same_operator: {
    when: 'the operator key deciding an approval is the one that asked for it: a second, different key must decide (dual control)',
    message: 'approval 5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41 was asked for with this operator key: another key must approve or reject it',
  },
  partner_disabled: {
    when: 'the key is valid but an operator disabled its partner: every key of the partner is refused until it is re-enabled (its data is kept)',
    message: 'this partner is disabled: contact the operator',
  },
  invalid_signature: {
    when: 'X-Pix-Signature is missing or malformed, its timestamp is over 300 s from now, it is not the HMAC-SHA256 of `<t>.<body>` with the provider secret, or no secret is configured',
    message: 'X-Pix-Signature does not match the body',
  },
  invalid_transition: {
    when: "the notified status cannot follow the inflow's current one (e.g. denied to approved, credited to processing)",
    message: 'a pix inflow cannot move from denied to approved',
  },
  account_not_found: {
    when: 'no user has the receiving account (another ISPB than ours, a number never issued, another type): the Pix is refused (SPI: AC03), kept for the operator',
    message: 'no account 0001/100000002 (TRAN) at ISPB 99999999: refused',
    field: 'receiver_account',
  },
  account_blocked: {
    when: 'the receiving account is blocked by the operator, or its partner is disabled: the Pix is refused (SPI: AC06), kept for the operator',
    message: 'account 0001/100000002 is blocked: refused',
    field: 'receiver_account',
  },
  account_closed: {
    when: 'the receiving account is closed (the provider: the Pix is refused, SPI: AC04, kept for the operator; the operator API: closed is final)',
    message: 'account 0001/100000002 is closed',
    field: 'receiver_account',
  },
  account_not_empty: {
    when: 'the account to close still holds a BRL balance: it must be paid out first',
    message: 'account 0001/100000002 holds 2500 BRL cents: it cannot be closed',
  },
  med_case_not_found: {
    when: 'no MED case of that id',
    message: 'no MED case 7f0c2a54-3c55-4a8e-9d0e-8f4f3c2b1a10',
    field: 'case_id',
  },
  med_case_not_open: {
    when: 'the MED case is decided already, or its devolução is under way: only an open case is decided',
    message: 'MED case 7f0c2a54-3c55-4a8e-9d0e-8f4f3c2b1a10 is agreed: only an open case is decided',
  },
  med_decision_invalid: {
    when: "agree and disagree decide an infraction report, accept and reject a refund request: the decision is not one of the case's kind",
    message: 'accept does not decide a infraction_report: its decisions are agree and disagree',
    field: 'decision',
  },
  pix_in_not_refundable: {
    when: 'the inflow is not credited (still settling, denied or failed): nothing of it reached the balance to return; or a MED case holds its funds (blocked)',
    message: 'pix inflow E60701190202611220316ChEFWNP0TTY is processing: only a credited inflow can be refunded',
  },
  refund_exceeds_amount: {
    when: "this refund with the inflow's earlier ones that did not fail would return more than it brought; the message says what is left",
    message: 'refunding 2000 cents would exceed the inflow: 12345 received, 11000 refunded, 1345 left',
    field: 'amount_cents',
  },
  refund_window_closed: {
    when: 'the inflow is more than 90 days old: the Pix rules allow a devolução within 90 days of the payment',
    message: 'pix inflow E60701190202611220316ChEFWNP0TTY was received at 2026-08-01T12:00:00Z: refunds close 90 days after',
  },
  end_to_end_id_conflict: {
    when: 'the end_to_end_id is recorded with other details (amount, receiver, sender, method) or for another partner',
    message: 'end_to_end_id E60701190202611220316ChEFWNP0TTY is recorded with other details',
  },
  not_found: { when: 'no such resource for this partner', message: 'no such resource' },
  user_not_found: { when: 'no user with that CPF under this partner', message: 'no user with document 52998224725' },
  partner_not_found: {
    when: 'no partner with the partner_id of the path',
    message: 'no partner with id 7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
  },
  already_exists: { when: 'it exists already', message: 'already exists' },
  payload_too_large: { when: 'the body is over BODY_LIMIT_BYTES (64 KiB)', message: 'Request body is too large' },
  unsupported_media_type: { when: 'the body is not application/json', message: 'Unsupported Media Type: text/plain' },
  uri_too_long: {
    when: 'a path parameter is over 100 characters (refused before routing)',
    message: 'a path parameter is longer than 100 characters',
  },
  headers_too_large: {
    when: 'the request line and headers together are over 16 KiB (refused before the request is read)',
    message: 'the request line and headers are longer than 16 KiB',
  },
  invalid_amount: {
    when: 'usdtmicros is not an integer from 10,000 to 1,000,000,000,000',
    message: 'usdtmicros must be an integer number of micros from 10000 to 1000000000000',
    field: 'usdtmicros',
  },
  invalid_fee: {
    when: 'fee_choice is not LOW, MEDIUM or HIGH',
    message: 'fee_choice must be one of LOW, MEDIUM, HIGH',
    field: 'fee_choice',
  },
  insufficient_funds: {
    when: 'the balance is below amount + network fee',
    message: 'the available balance does not cover the amount and the network fee',
  },
  address_blocked: {
    when: "the destination is on a screening list: the OFAC SDN list's copy, the token contract's blacklist (isBlackListed), or the operator's deny list; the message names which. Nothing was created",
    message:
      'address 0x8589427373d6d84e98730d7795d8f6f8731fda16 is on the OFAC SDN list (the copy published 2024-09-27): withdrawals to it are refused',
    field: 'address',
  },
  limit_exceeded: {
    when: "the amount is over a limit the operator set: per withdrawal, the user's in any 24 hours or 30 days, or all your users' in any 24 hours; the message names the limit, the use and what is left. Nothing was created; GET /partner/v1/users/{document}/limits shows them",
    message: "250000000 micros is over the user's daily limit (any 24 hours) of 1000000000 micros; 900000000 used, 100000000 left",
  },
  beneficiary_required: {
    when: "your withdrawal policy (set by the operator) asks every withdrawal to name its beneficiary, and this one names none (nor does the user's saved address)",
    message: 'a beneficiary is required: name the owner of the destination (beneficiary), or save the address with its owner first',
    field: 'beneficiary',
  },
  address_not_saved: {
    when: "your withdrawal policy allows withdrawals only to the user's saved addresses (POST /partner/v1/users/{document}/addresses), and this one is not saved",
    message: "address 0xd8da6bf26964af9d7eed9e03e53415d37aa96045 is not in the user's saved addresses: save it first",
    field: 'address',
  },
  address_cooling_down: {
    when: "the address was saved less than your policy's cool-down ago; the message says when it can be paid",
    message:
      'address 0xd8da6bf26964af9d7eed9e03e53415d37aa96045 was saved at 2026-11-30T10:00:00Z: it can be paid from 2026-12-01T10:00:00Z',
    field: 'address',
  },
  invalid_proof: {
    when: "proof.signature is not the address's EIP-191 signature of the challenge (GET /partner/v1/users/{document}/addresses/challenge)",
    message: 'proof.signature was not made by 0xd8da6bf26964af9d7eed9e03e53415d37aa96045 over the challenge',
    field: 'proof.signature',
  },
  idempotency_key_reused: {
    when: 'the idempotency key was used before with a different request',
    message: 'idempotency_key was already used with a different request',
    field: 'idempotency_key',
  },
  claim_not_found: {
    when: "no claim of that id on the user's current Pix key (unknown, or another partner's)",
    message: 'no claim 6a1f0c2e-5b7d-4e3a-9c8b-1d2e3f4a5b6c on the Pix key of document 52998224725',
  },
  claim_not_pending: {
    when: 'the claim no longer waits for a decision: the other one was taken already, or it ended (canceled, confirmed, completed)',
    message: 'the claim was decided already (cancel) or has ended',
  },
  holder_name_missing: {
    when: "the user has no holder's name on file and the request gives none: DICT records a name with every key",
    message: "the user has no holder's name: give name in the request, or have the operator register the user with one",
    field: 'name',
  },
  holder_name_invalid: {
    when: "the holder's name on file is outside DICT's rule (letters, spaces, ' and -, up to 120), and the request gives none",
    message: "the user's holder name on file is not one DICT takes: give name in the request",
    field: 'name',
  },
  pix_key_not_registered: {
    when: 'method dict to a user without a registered Pix key',
    message: 'the user has no registered Pix key: a Pix by key (dict) cannot reach them',
  },
  rate_limited: {
    when: "over the partner's rate limit, or too many unknown keys from the client's address (AUTH_FAILURES_*); wait Retry-After seconds",
    message: 'too many requests: at most 50 per second (bursts of 100); retry after 1 s',
  },
  service_unavailable: {
    when: 'the service behind the gateway did not answer in time, failed while handling the request, or could not be reached (or a database connection was not free in time, or, for a write, the shared rate-limit store could not be reached): the outcome is unknown; wait Retry-After seconds and retry with the same idempotency_key, which gives the one outcome',
    message: 'the service did not answer in time; the outcome is unknown: retry with the same idempotency_key',
  },
  not_implemented: { when: 'the request is not served here', message: 'not implemented' },
  internal_error: { when: 'a bug of ours; it was logged', message: 'internal error; it was logged' },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable',
  429: 'Too many requests',
  503: 'Service unavailable',
};

/** On every answer of the gateway: the caller's own sane X-Request-Id, or one it made (docs/api.md: "Request ids"). */
const REQUEST_ID = {
  'X-Request-Id': {
    required: true,
    description:
      'Your X-Request-Id when it is 1-128 characters of A-Z a-z 0-9 . _ : -, otherwise one the gateway made; quote it to support',
    schema: { type: 'string', maxLength: 128 },
  },
};

const RETRY_AFTER = {
  'Retry-After': {
    required: true,
    description: 'Whole seconds until a request is allowed again (at least 1)',
    schema: { type: 'integer', minimum: 1 },
  },
};

/** On an answer that may replay an idempotency key's first one (idempotent-replayed.ts). */
const IDEMPOTENT_REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    required: false,
    description:
      "`true` when this answer replays the first answer to this idempotency key (nothing was done again); absent on the request's first execution",
    schema: { type: 'string', enum: ['true'] },
  },
};

/** A schema class narrowed to some values of its properties: allOf [the class, {property: enum}]. */
function narrowed(type: Type<unknown>, narrow: Record<string, readonly string[]>) {
  return {
    allOf: [
      { $ref: getSchemaPath(type) },
      {
        type: 'object',
        required: Object.keys(narrow),
        properties: Object.fromEntries(Object.entries(narrow).map(([key, values]) => [key, { type: 'string', enum: [...values] }])),
      },
    ],
  };
}

export interface ApiAnswerOptions {
  description: string;
  /** Only these values of a property in this answer (e.g. a Pix key's 202 is `status: accepted` only). */
  narrow?: Record<string, readonly string[]>;
  example?: unknown;
  /** This answer may replay an idempotency key's first answer: documents `Idempotent-Replayed`. */
  replayable?: boolean;
}

/** A success answer: `status`, with a body of schema `type` (a class of libs/contracts or of the gateway). */
export function ApiAnswer(
  status: number,
  type: Type<unknown>,
  { description, narrow, example, replayable }: ApiAnswerOptions,
): MethodDecorator {
  const body = narrow ? { schema: narrowed(type, narrow) } : { type };
  const headers = replayable ? { ...REQUEST_ID, ...IDEMPOTENT_REPLAYED_HEADER } : REQUEST_ID;
  return applyDecorators(
    ApiExtraModels(type),
    ApiResponse({ status, description, ...body, headers, ...(example === undefined ? {} : { example }) }),
  );
}

/** A code's sample where a family's own wording is truer than the partner API's (the operator API's). */
export type ErrorSamples = Partial<Record<ErrorCode, CodeSample>>;

/** The operator API's samples: its key, its path parameters, its rate limit. */
export const OPERATOR_SAMPLES: ErrorSamples = {
  unauthorized: {
    when: 'missing or unknown operator key (a partner key included); counted on /metrics, not written to the audit log',
    message: 'missing or unknown X-Admin-Key',
  },
  invalid_request: {
    when: 'malformed input: a path parameter that is not a UUID, a wrong type, a missing or unknown field, a bad query value, invalid JSON, text that is not well-formed (a control character, a lone surrogate, over 4096 characters) anywhere',
    message: 'partner_id must be a UUID',
    field: 'partner_id',
  },
  rate_limited: {
    when: "over the operator key's rate limit (ADMIN_RATE_LIMIT_*), or too many unknown keys from the client's address (AUTH_FAILURES_*); wait Retry-After seconds",
    message: 'too many requests: at most 20 per second (bursts of 40); retry after 1 s',
  },
  service_unavailable: {
    when: 'a service behind the gateway did not answer in time, failed, or could not be reached: the outcome is unknown; wait Retry-After seconds and retry (a credit with the same idempotency_key)',
    message: 'the service did not answer in time; the outcome is unknown: retry with the same idempotency_key',
  },
};

/** POST .../credits: the credit's own rules. */
export const CREDIT_SAMPLES: ErrorSamples = {
  ...OPERATOR_SAMPLES,
  invalid_request: {
    when: 'malformed input: usdt_micros not an integer from 1, an idempotency_key or reference out of its pattern, a path parameter that is not a UUID, invalid JSON, text that is not well-formed (a control character, a lone surrogate, over 4096 characters) anywhere',
    message: 'usdt_micros must be at least 1',
    field: 'usdt_micros',
  },
  invalid_amount: {
    when: "the credit would take the user's balance past 9,007,199,254,740,991 micros (2^53 - 1: amounts are JSON integers)",
    message: 'the credit would take the balance over 9007199254740991 micros',
    field: 'usdt_micros',
  },
  idempotency_key_reused: {
    when: 'the idempotency_key was used before with another document, amount or reference',
    message: 'idempotency_key was already used with a different credit',
    field: 'idempotency_key',
  },
};

/** POST /partner/v1/pix-in/{end_to_end_id}/refunds: a refund's own rules (BRL cents, the inflow's balance). */
export const REFUND_SAMPLES: ErrorSamples = {
  invalid_amount: {
    when: 'amount_cents is not an integer from 1 to 10,000,000,000',
    message: 'amount_cents must be an integer number of cents from 1 to 10000000000',
    field: 'amount_cents',
  },
  not_found: { when: 'you have no inflow with that end_to_end_id', message: 'no pix inflow E60701190202611220316ChEFWNP0TTY' },
  insufficient_funds: {
    when: "the user's available BRL balance is below the amount (it was spent, or is blocked)",
    message: "the user's available balance (1500 cents) does not cover 2000 cents",
    field: 'amount_cents',
  },
  idempotency_key_reused: {
    when: 'the idempotency_key was used before for another refund (another inflow, amount or reason)',
    message: 'idempotency_key was already used with a different refund',
    field: 'idempotency_key',
  },
};

/** POST /partner/v1/customers/business: its Idempotency-Key header, and the 409 that names the customer registered first. */
export const CREATE_BUSINESS_CUSTOMER_SAMPLES: ErrorSamples = {
  invalid_request: {
    when: 'malformed input: a wrong type, a missing or unknown field, invalid JSON, text that is not well-formed (a control character, a lone surrogate, over 4096 characters) anywhere; an Idempotency-Key header that is not 1-255 visible ASCII characters, reported before the body with field Idempotency-Key',
    message: 'Idempotency-Key must be 1-255 visible ASCII characters (! to ~, no space)',
    field: 'Idempotency-Key',
  },
  already_exists: {
    when: "this partner registered this CNPJ already, under another Idempotency-Key or none; id is that customer's",
    message: 'a business customer with CNPJ 12ABC34501DE35 is already registered',
    field: 'cnpj',
    id: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41',
  },
  idempotency_key_reused: {
    when: 'the Idempotency-Key was used before with a different registration, compared as stored, field order aside',
    message: 'Idempotency-Key was already used with a different registration',
    field: 'Idempotency-Key',
  },
};

/**
 * The error answers of a route of `family`: one response per status of the `codes` given, whose body is the
 * family's error schema with the code narrowed to those codes, an example per code, and Retry-After on 429
 * and 503. `unauthorized` is `{error, ...}` on every family. A code that is neither the family's nor one the
 * gateway answers everywhere does not compile.
 */
export function ApiErrors<F extends ErrorFamily>(
  family: F,
  codes: readonly (FamilyErrorCode<F> | GatewayErrorCode)[],
  samples: ErrorSamples = {},
): MethodDecorator {
  const shape = shapeOf(family);
  const sample = (code: ErrorCode) => samples[code] ?? CODES[code];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = STATUS_OF_CODE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const namedResource = [...byStatus.values()].flat().some((code) => sample(code).id !== undefined);
  const responses = [...byStatus].map(([status, statusCodes]) => {
    // Authentication's refusals are `{error, ...}` on every family (error-body.ts).
    const key = status === 401 || status === 403 ? 'error' : shape;
    const namesResource = statusCodes.some((code) => sample(code).id !== undefined);
    const body = key === 'error' ? (namesResource ? ExistingResourceErrorBody : ErrorBody) : PixKeyErrorBody;
    const examples = Object.fromEntries(
      statusCodes.map((code) => {
        const { message, field, id } = sample(code);
        return [code, { summary: code, value: { [key]: code, message, ...(field ? { field } : {}), ...(id ? { id } : {}) } }];
      }),
    );
    return ApiResponse({
      status,
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${statusCodes.map((code) => `\`${code}\` (${sample(code).when})`).join('; ')}`,
      schema: narrowed(body, { [key]: statusCodes }),
      headers: status === 429 || status === 503 ? { ...REQUEST_ID, ...RETRY_AFTER } : REQUEST_ID,
      examples,
    });
  });
  return applyDecorators(ApiExtraModels(ErrorBody, PixKeyErrorBody, ...(namedResource ? [ExistingResourceErrorBody] : [])), ...responses);
}
