import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as received, kept only on the Pix provider's route (/provider/): its signature is over these bytes. */
    rawBody?: string;
  }
}

type ParseDone = (error: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string | Buffer, done: ParseDone) => void;

/**
 * Installs the gateway's JSON body parser: Fastify's own (secure-json-parse, so `__proto__` and
 * `constructor.prototype` keys are refused), except that an empty body is no body. Many HTTP clients
 * send `Content-Type: application/json` on every call, body-less ones included (PATCH
 * /partner/v1/events/{id}), and Fastify alone refuses those with 400. A route that needs a body then
 * reports its first missing field, exactly as when no content type is sent. Anything else is unchanged:
 * malformed JSON (`{`, or only whitespace) is still 400, other content types still 415. On /provider/
 * routes the text is also kept as `rawBody`, for the HMAC of the Pix provider's signature.
 */
export function installJsonBodyParser(instance: FastifyInstance): void {
  // Fastify's defaults for both poisoning checks; its parser is the callback form (the type also allows a promise one).
  const parseJson = instance.getDefaultJsonParser('error', 'error') as JsonParser;
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.url.startsWith('/provider/')) request.rawBody = body.toString();
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, body, done);
  });
}
