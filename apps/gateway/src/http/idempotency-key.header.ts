import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { IDEMPOTENCY_KEY_HEADER_RULE, IdempotencyKeyInput } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import type { FastifyRequest } from 'fastify';
import { ApiError, apiErrorOf } from './api-error';

/** The header that makes a registration idempotent (docs/api.md: "Headers"). */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** What the service calls the key: the command's field. Its refusals name the header instead (asHeaderRefusal). */
const COMMAND_FIELD = 'idempotency_key';

/**
 * The request's Idempotency-Key, checked by the class the service checks the command with; undefined when
 * the header is absent. A bad one (empty, over 255 characters, a space or any character outside visible ASCII,
 * the header sent twice, which the HTTP server joins with ", ") is 400 invalid_request naming the header. It is
 * read before any pipe runs, so it is reported before the body's problems.
 */
export const IdempotencyKeyHeader = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<FastifyRequest>().headers[IDEMPOTENCY_KEY.toLowerCase()];
  if (value === undefined) return undefined;
  const checked = validateContract(IdempotencyKeyInput, { [COMMAND_FIELD]: value });
  if (!checked.ok || checked.value.idempotency_key === undefined) {
    throw apiErrorOf({
      code: 'invalid_request',
      message: `${IDEMPOTENCY_KEY} must be ${IDEMPOTENCY_KEY_HEADER_RULE}`,
      field: IDEMPOTENCY_KEY,
    });
  }
  return checked.value.idempotency_key;
});

/** A service's refusal about the command's idempotency_key (idempotency_key_reused), as the HTTP caller sent it: the header. */
export function asHeaderRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.detail.field !== COMMAND_FIELD) return error;
  const message = error.detail.message.replace(COMMAND_FIELD, IDEMPOTENCY_KEY);
  return new ApiError(error.status, { ...error.detail, message, field: IDEMPOTENCY_KEY });
}
