import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, ServiceUnavailableException } from '@nestjs/common';
import { ErrorCode, ReplyError } from '@partner/contracts';
import { ServiceUnavailableError, UnavailableReason } from '@partner/kafka';
import { INVALID_REQUEST } from '@partner/validation';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import { errorBody } from './error-body';

const logger = new Logger('HttpError');

/** What the framework's own errors (routing, body parsing, limits) mean in our codes. */
const FRAMEWORK_CODES: Partial<Record<number, ErrorCode>> = {
  400: INVALID_REQUEST,
  401: 'unauthorized',
  404: 'not_found',
  405: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * The gateway's own database (partners and keys, the shared rate-limit store) cannot be reached: the
 * connection was refused, cut or timed out, or the server is shutting down or out of connections
 * (SQLSTATE classes 08 and 57P, and 53300). The caller did nothing wrong and may retry: 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (
    code.startsWith('08') ||
    code.startsWith('57P') ||
    code === '53300' ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT'
  )
    return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(message);
}

/**
 * What a 503 says, by why the service gave no usable reply. Each is honest about the outcome (docs/api.md:
 * "What 503 means", ADR 0016): a command that timed out or failed may have been done or not, and the same
 * request with the same idempotency_key gives its one outcome either way.
 */
export const UNAVAILABLE_MESSAGES: Record<UnavailableReason, string> = {
  timed_out: 'the service did not answer in time; the outcome is unknown: retry with the same idempotency_key',
  failed: 'the service failed while handling the request; the outcome is unknown: retry with the same idempotency_key',
  unreachable: 'the service could not be reached; retry with the same idempotency_key',
};

/** Whole seconds a caller waits before retrying after a 503 (the Retry-After of every 503). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** Turns anything thrown while serving a request into a status and a family-shaped body. */
export function toHttpError(error: unknown): { status: number; detail: ReplyError<ErrorCode> } {
  if (error instanceof ApiError) return { status: error.status, detail: error.detail };
  if (error instanceof ServiceUnavailableError) {
    logger.warn(error.message);
    return { status: 503, detail: { code: 'service_unavailable', message: UNAVAILABLE_MESSAGES[error.reason] } };
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn(`database unavailable: ${(error as Error).message}`);
    return {
      status: 503,
      detail: { code: 'service_unavailable', message: 'a dependency is unavailable; retry (with the same idempotency_key)' },
    };
  }
  const status = error instanceof HttpException ? error.getStatus() : (error as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = FRAMEWORK_CODES[status] ?? INVALID_REQUEST;
    const message = code === INVALID_REQUEST ? 'request body is not valid JSON' : (error as Error).message;
    return { status: FRAMEWORK_CODES[status] ? status : 400, detail: { code, message } };
  }
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return { status: 500, detail: { code: 'internal_error', message: 'internal error; it was logged' } };
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // Health checks report which dependency is down in their own body; keep it (503, not an error of ours).
    if (error instanceof ServiceUnavailableException) {
      void reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send(error.getResponse());
      return;
    }
    const { status, detail } = toHttpError(error);
    // Every 503 says when to come back; a 429 too: the rate limit's sets its own, from its bucket, before it
    // throws; a service's (a quota's) comes with its refusal.
    if (status === 503) void reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    if (status === 429 && detail.retry_after_seconds !== undefined) void reply.header('retry-after', String(detail.retry_after_seconds));
    void reply.status(status).send(errorBody(request, detail));
  }
}
