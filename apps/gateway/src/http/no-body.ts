import { INVALID_REQUEST } from '@partner/validation';
import { apiErrorOf } from './api-error';

/**
 * For a route that takes no body (PATCH /partner/v1/events/{id}): no body, an empty one, `null` or `{}`
 * pass, since many clients send a JSON content type, and some `{}`, on every call. Anything else is
 * refused as an unknown field would be anywhere else (400 invalid_request), rather than silently ignored.
 */
export function assertNoBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw apiErrorOf({ code: INVALID_REQUEST, message: 'this request takes no body: send none, or {}' });
  }
  const [field] = Object.keys(body);
  if (field !== undefined)
    throw apiErrorOf({ code: INVALID_REQUEST, field, message: `unknown field ${field}: this request takes no body` });
}

/** The OpenAPI body of such a route (`@ApiBody(NO_BODY)`). */
export const NO_BODY = {
  required: false,
  description: 'None: an empty body or {} is accepted; any field is 400 invalid_request',
  schema: { type: 'object' as const, maxProperties: 0 },
};
