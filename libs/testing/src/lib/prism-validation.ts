// Deep imports: the package's index loads its mocker too (faker, an ES module Jest cannot require on Node 20).
import type { IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations';
import route from '@stoplight/prism-http/dist/router';
import { validateInput, validateOutput } from '@stoplight/prism-http/dist/validator';
import type { IPrismDiagnostic } from '@stoplight/prism-core';
import { DiagnosticSeverity, type IHttpOperation } from '@stoplight/types';

/**
 * The third-party check of the e2e run (docs/development.md: "The OpenAPI validator"): every exchange the
 * suites recorded (response-contract.ts, recordResponse) is validated again by Stoplight Prism's own HTTP
 * validator (@stoplight/prism-http, the engine of `prism proxy`), in process, against the committed
 * document it belongs to (the partner's, the operator's on an operator port, the Pix provider's for /provider/). Prism's routing finds the operation, validateInput the request (parameters,
 * headers, body), validateOutput the answer (status, headers, body).
 *
 * What counts as a mismatch:
 * - every error Prism finds in an answer;
 * - an error in a request only when the gateway accepted it (2xx): the document says the request is
 *   invalid and the gateway did it anyway. A request the gateway refused (4xx) is one a suite sent invalid
 *   on purpose (an error row, the security matrix): the document and the gateway agree on it;
 * - a request Prism cannot route, unless the gateway answered 404 (an unknown route, whose shape the
 *   ajv contract checks);
 * - exchanges marked `answerOnly` (the fuzz suite's hostile requests) are held to the answer rule only.
 */

/** The committed documents (docs/api.md "Reference"): the partner API's, the operator API's, the Pix provider's. */
export type ApiDocument = 'partner' | 'operator' | 'provider';

export interface Exchange {
  /** The document the exchange is checked against (response-contract.ts documentOf: by port and path). */
  document: ApiDocument;
  method: string;
  path: string;
  /** The query string, with its `?`, or ''. */
  query: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  answerOnly?: boolean;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

/** A body as Prism takes it: parsed JSON when it is JSON, else the text (or nothing). */
function bodyOf(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = query[key];
    query[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}

const errorsOf = (diagnostics: IPrismDiagnostic[]) =>
  diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => `${d.path?.join('.') ?? ''} ${d.message}`.trim());

/** Prism's verdict on one exchange against `operations`: [] when it conforms (by the rules above). */
export function prismViolations(operations: IHttpOperation[], exchange: Exchange): string[] {
  const where = `${exchange.method.toUpperCase()} ${exchange.path}${exchange.query} → ${exchange.status}`;
  const request: IHttpRequest = {
    method: exchange.method as IHttpRequest['method'],
    url: { path: exchange.path, query: queryOf(exchange.query) },
    headers: exchange.requestHeaders,
    body: bodyOf(exchange.requestBody),
  };
  const routed = route({ resources: operations, input: request });
  if (routed._tag === 'Left') return exchange.status === 404 ? [] : [`${where}: Prism finds no operation (${routed.left.message})`];
  const operation = routed.right;
  const found: string[] = [];
  const accepted = exchange.status >= 200 && exchange.status < 300;
  if (accepted && !exchange.answerOnly) {
    const input = validateInput({ resource: operation, element: request });
    if (input._tag === 'Left')
      found.push(...errorsOf(input.left).map((e) => `${where}: request accepted, yet invalid by the document: ${e}`));
  }
  const answer: IHttpResponse = { statusCode: exchange.status, headers: exchange.responseHeaders, body: bodyOf(exchange.responseBody) };
  const output = validateOutput({ resource: operation, element: answer });
  if (output._tag === 'Left') found.push(...errorsOf(output.left).map((e) => `${where}: answer: ${e}`));
  return found;
}

/** The operations of a committed document, as Prism reads them. */
export const prismOperationsOf = (documentPath: string): Promise<IHttpOperation[]> => getHttpOperationsFromSpec(documentPath);
