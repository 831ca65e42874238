import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INVALID_REQUEST } from '@partner/validation';
import { apiErrorOf } from './api-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received, kept only on the Pix provider's route (/provider/): its signature is over these bytes. */
    rawBody?: Buffer;
  }
}

type ParseDone = (error: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string | Buffer, done: ParseDone) => void;

/**
 * Strict UTF-8 (RFC 8259: JSON text exchanged is UTF-8): a malformed sequence refuses the body rather than
 * becoming U+FFFD. A byte order mark is kept, as Fastify's string decoding keeps it.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Fastify's own error for a body that is not JSON (answered 400 invalid_request, "request body is not valid JSON"). */
const notJson = (): Error => Object.assign(new Error('Body is not valid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });

/**
 * Where a parsed body holds a key that secure-json-parse refuses: `__proto__` anywhere, or `prototype` inside
 * a `constructor` object. JSON.parse makes both plain own properties, so reading them here is safe.
 */
export function poisonedKeyPath(value: unknown): string | undefined {
  // Iterative, each step linked to its parent: a body may nest far deeper than the call stack (the depth limit is
  // the route's, checked later), and copying the path at every level would be quadratic in that depth.
  type Step = { key: string; parent?: Step };
  const pathOf = (step: Step | undefined, ...tail: string[]) => {
    const keys = tail;
    for (let s = step; s; s = s.parent) keys.unshift(s.key);
    return keys.join('.');
  };
  const pending: Array<[unknown, Step | undefined]> = [[value, undefined]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, at] = next;
    if (node === null || typeof node !== 'object') continue;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (key === '__proto__') return pathOf(at, key);
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
        return pathOf(at, key, 'prototype');
      pending.push([child, { key, parent: at }]);
    }
  }
  return undefined;
}

/** The refusal of a body with such a key: valid JSON, so named for what it is and where, not as malformed. */
const poisonedKey = (text: string): Error | undefined => {
  let path: string | undefined;
  try {
    path = poisonedKeyPath(JSON.parse(text));
  } catch {
    return undefined; // not JSON at all: Fastify's own answer stands
  }
  if (!path) return undefined;
  const field = path.split('.').slice(0, -1).join('.') || path;
  return apiErrorOf({
    code: INVALID_REQUEST,
    field,
    message: `${path}: keys named __proto__, or prototype inside constructor, are not accepted`,
  });
};

/**
 * Installs the gateway's JSON body parser: Fastify's own (secure-json-parse, so `__proto__` and
 * `constructor.prototype` keys are refused: 400 invalid_request naming where), except that an empty body is no body. Many HTTP clients
 * send `Content-Type: application/json` on every call, body-less ones included (PATCH
 * /partner/v1/events/{id}), and Fastify alone refuses those with 400. A route that needs a body then
 * reports its first missing field, exactly as when no content type is sent. Anything else is unchanged:
 * malformed JSON (`{`, or only whitespace) is still 400, other content types still 415. The body is read
 * as bytes and decoded here, so that on /provider/ routes the bytes themselves are kept as `rawBody`: the
 * Pix provider's HMAC is over them, and a decoded string (or a re-serialisation) is not the same bytes.
 */
export function installJsonBodyParser(instance: FastifyInstance): void {
  // Fastify's defaults for both poisoning checks; its parser is the callback form (the type also allows a promise one).
  const parseJson = instance.getDefaultJsonParser('error', 'error') as JsonParser;
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (request.url.startsWith('/provider/')) request.rawBody = body;
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      done(notJson());
      return;
    }
    parseJson(request, text, (error, parsed) => done(error ? (poisonedKey(text) ?? error) : null, parsed));
  });
}
