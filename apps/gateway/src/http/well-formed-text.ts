import { describeTextFault, findMalformedText, INVALID_REQUEST, textProblem } from '@partner/validation';
import type { ErrorDetail, InvalidRequest } from '@partner/validation';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/** The request headers the API reads, as documented (the request id is read only when sane: request-id.ts). */
export const READ_HEADERS = ['X-API-Key', 'X-Admin-Key'] as const;

/**
 * The first text of a request that is not well-formed (libs/validation textProblem: C0 controls but tab,
 * line feed and carriage return; lone surrogates; longer than MAX_TEXT_LENGTH), looked for in the
 * headers the API reads, the path parameters, the query string and the JSON body, keys included,
 * however nested; undefined when there is none. Never quotes the text.
 */
export function malformedTextOf(
  request: Pick<FastifyRequest, 'headers' | 'params' | 'query' | 'body'>,
): ErrorDetail<InvalidRequest> | undefined {
  const refuse = (field: string, message: string): ErrorDetail<InvalidRequest> => ({ code: INVALID_REQUEST, field, message });
  for (const name of READ_HEADERS) {
    const value = request.headers[name.toLowerCase()];
    // Node's HTTP parser already refuses most control characters in headers; a tab, DEL or a huge value gets through.
    const problem = typeof value === 'string' ? textProblem(value, { lineBreaks: false }) : undefined;
    if (problem) return refuse(name, `header ${name} ${problem}`);
  }
  const places: Array<[unknown, string]> = [
    [request.params, 'path parameter'],
    [request.query, 'query parameter'],
    [request.body, 'field'],
  ];
  for (const [value, noun] of places) {
    const fault = findMalformedText(value);
    if (fault) return { code: INVALID_REQUEST, ...(fault.field ? { field: fault.field } : {}), message: describeTextFault(fault, noun) };
  }
  return undefined;
}

/** The API's families; probes (/healthz, /readyz, /metrics) and the reference (/docs) read nothing from a request. */
const API_PREFIXES = ['/partner/', '/provider/', '/sandbox/', '/admin/'];

/**
 * Whether a request reaches an operation of the API: an unknown route is 404 whatever it holds (the
 * operator API's catch-all routes, `/admin/v1/*`, answer those too).
 */
const readsText = (request: FastifyRequest): boolean =>
  !request.is404 && !request.routeOptions.url?.includes('*') && API_PREFIXES.some((prefix) => request.url.startsWith(prefix));

/**
 * Refuses, with 400 invalid_request in the endpoint family's shape (docs/api.md "Errors": "Text"), any
 * request whose text is not well-formed, before guards, pipes, validators, services or the database
 * see it: one check for every route, rather than one per contract. A preValidation hook runs once the
 * body is parsed and the route matched; what it throws goes to the app's error filter like any error.
 */
export function refuseMalformedText(instance: FastifyInstance): void {
  instance.addHook('preValidation', async (request) => {
    if (!readsText(request)) return;
    const detail = malformedTextOf(request);
    if (detail) throw new ApiError(400, detail);
  });
}
