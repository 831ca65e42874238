import { INVALID_REQUEST } from '@partner/validation';
import type { ErrorCode } from '@partner/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { errorBody } from './error-body';
import { REQUEST_ID_HEADER } from './request-id';

/** The longest path parameter the router takes (Fastify's maxParamLength, its default). */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/** The answer to a path parameter over MAX_PATH_PARAMETER_LENGTH: the router's, and the operator catch-all's (audit-hook). */
export const URI_TOO_LONG = {
  status: 414,
  code: 'uri_too_long',
  message: `a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
} as const;

/** Fastify's errors before routing, in our codes (docs/api.md "Errors"). */
const BEFORE_ROUTING: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, code: INVALID_REQUEST, message: 'the request URL is not valid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: URI_TOO_LONG,
};

/**
 * Fastify answers some malformed requests itself, before Nest and its filter see them: a URL that is
 * not valid percent-encoding (`/partner/v1/pix-key/%`), a path parameter over maxParamLength. Passed
 * as the `frameworkErrors` option so those answers are in the family's shape too. `beforeSend` runs
 * once the status is set and before the answer leaves (the operator API's audit log).
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  beforeSend?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  const known = BEFORE_ROUTING[error.code];
  const { status, code, message } = known ?? { status: 500, code: 'internal_error' as const, message: 'internal error; it was logged' };
  if (!known) request.log.error(error);
  // Answered before routing, so before the hook that sets the header on every other answer.
  void reply.header(REQUEST_ID_HEADER, request.id);
  void reply.status(status);
  const send = () => void reply.send(errorBody(request, { code, message }));
  if (beforeSend) void beforeSend(request, reply).finally(send);
  else send();
}

/** What Node's HTTP parser refuses before there is a request at all, in our codes. */
function clientErrorOf(code: string | undefined): { status: number; code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, code: 'headers_too_large', message: 'the request line and headers are longer than 16 KiB' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: INVALID_REQUEST, message: 'the request was not received in time' };
  return { status: 400, code: INVALID_REQUEST, message: 'the request is not valid HTTP/1.1' };
}

/** The target of the request line at the start of `packet`, when it is there to read (else ''). */
function requestTargetOf(packet: unknown): string {
  // Node hands a Buffer (Fastify's type says a serialised one).
  const line = Buffer.isBuffer(packet) ? packet.subarray(0, 512).toString('latin1') : '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '';
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes (the request line and headers
 * over 16 KiB, which a 100,000-character URL is, or not HTTP at all), so no request exists and no hook
 * runs. Fastify's default answers `{"error":"Request Header Fields Too Large",...}`, in no family's
 * shape; this answers as every other error does: the family's body (read from the request line when the
 * packet holds it), a request id, then the connection is closed, since the parser cannot go on.
 */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = clientErrorOf(error.code);
  const id = randomUUID();
  const body = JSON.stringify(errorBody({ url: requestTargetOf(error.rawPacket), id }, { code, message }));
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  // Half-close after the answer and read what the client is still sending until it closes: destroying a
  // socket with unread bytes makes the kernel send a reset, and a client still writing its oversized request
  // then reads ECONNRESET instead of this answer (Node 24 destroys fast enough that it always did).
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  const lingering = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  lingering.unref();
  socket.once('close', () => clearTimeout(lingering));
}

/** How long a refused connection may go on sending before it is cut: enough for a request of a few MB on a slow link. */
const CLIENT_ERROR_LINGER_MS = 2_000;
