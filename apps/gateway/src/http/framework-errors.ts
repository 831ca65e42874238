import { INVALID_REQUEST } from '@partner/validation';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-body';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * Fastify answers some malformed requests itself, before Nest and its filter see them: a URL that is
 * not valid percent-encoding (`/partner/v1/pix-key/%`) would get Fastify's own body. Passed as the
 * `frameworkErrors` option so those answers are in the family's shape too. `beforeSend` runs once the
 * status is set and before the answer leaves (the operator API's audit log).
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  beforeSend?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? 400 : 500;
  const message = status === 400 ? 'the request URL is not valid (bad percent-encoding?)' : 'internal error; it was logged';
  if (status === 500) request.log.error(error);
  // Answered before routing, so before the hook that sets the header on every other answer.
  void reply.header(REQUEST_ID_HEADER, request.id);
  void reply.status(status);
  const send = () => void reply.send(errorBody(request, { code: status === 400 ? INVALID_REQUEST : 'internal_error', message }));
  if (beforeSend) void beforeSend(request, reply).finally(send);
  else send();
}
