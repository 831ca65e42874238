import type { ErrorCode, ReplyError } from '@partner/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * docs/api.md "Errors": the error body shape depends on the endpoint family. Withdrawals and business
 * customers answer `{error, message}`, Pix keys `{status, message}`. Authentication failures are
 * `{error: "unauthorized"}` (and `partner_disabled`) on every family. `field` names the offending input when there is one,
 * `id` the resource that exists already when a refusal names one (a business customer's already_exists).
 * Every error body also carries `request_id`, the X-Request-Id of the answer (docs/api.md: "Request ids"):
 * this is the one place error bodies are made, for our errors and the framework's alike.
 */
export function errorBody(request: Pick<FastifyRequest, 'url' | 'id'>, detail: ReplyError<ErrorCode>): Record<string, string> {
  const body: Record<string, string> =
    request.url.startsWith('/partner/v1/pix-key') && detail.code !== 'unauthorized' && detail.code !== 'partner_disabled'
      ? { status: detail.code, message: detail.message }
      : { error: detail.code, message: detail.message };
  if (detail.field) body.field = detail.field;
  if (detail.id) body.id = detail.id;
  body.request_id = request.id;
  return body;
}
