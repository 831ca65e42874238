import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { saneRequestId } from '@partner/runtime';
import { openRequestContexts } from '@partner/platform';

/** The header a caller may name its request with, and every answer carries (docs/api.md: "Request ids"). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Fastify's `genReqId`: the caller's own X-Request-Id when it is sane (1-128 characters of letters,
 * digits, `.` `_` `:` `-`; see saneRequestId), otherwise a new UUID. Fastify's `requestIdHeader` is left
 * off on purpose: it would take any header value as it came, spaces and control characters included.
 */
export function genReqId(req: Pick<IncomingMessage, 'headers'>): string {
  return saneRequestId(req.headers[REQUEST_ID_HEADER]) ?? randomUUID();
}

/**
 * Every answer carries X-Request-Id (set first thing, so errors answered before the handler keep it:
 * 404, 413, 415, malformed JSON), and each request runs in its request context (openRequestContexts),
 * which carries the id to the logs and, through the MessageBus, to the services.
 */
export function trackRequestIds(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  openRequestContexts(app);
}
