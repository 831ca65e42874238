import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiDocument, Exchange } from './prism-validation';

/**
 * The response contract: every answer the end-to-end suites receive is checked against its committed
 * OpenAPI document (docs/openapi.json, or the operator's or the Pix provider's: documentOf). The operation is found by method and path template (literal
 * segments before parameters, as the router does), the answer by its status; the body must match that
 * answer's JSON schema (ajv), declared headers must be there. An undocumented status is a violation; so
 * is a body with a field the document does not list (object schemas are checked as if they said
 * `additionalProperties: false`, unless they say otherwise), so the document cannot fall behind the code.
 * A path no operation has must be the 404 of an unknown route, in one of the two error shapes.
 */

type Schema = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: Schema }>;
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Record<string, ResponseObject>;
}

const DOCUMENT_ID = 'openapi.json';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
const pointer = (...parts: string[]) => `${DOCUMENT_ID}#/${parts.map(escapePointer).join('/')}`;

/** A committed document (the partner API's, `openapi-operator.json` or `openapi-provider.json`), found from this file up to the repository root. */
export function committedOpenApiPath(file = 'openapi.json'): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'docs', file);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`docs/${file} not found above libs/testing: run \`npm run openapi\``);
}

const DOCUMENT_FILES: Record<ApiDocument, string> = {
  partner: 'openapi.json',
  operator: 'openapi-operator.json',
  provider: 'openapi-provider.json',
};

/** A committed document by its audience; its YAML is beside it (`.yaml`). */
export const committedDocumentPath = (document: ApiDocument): string => committedOpenApiPath(DOCUMENT_FILES[document]);

/** The operator API's committed document. */
export const committedOperatorOpenApiPath = (): string => committedDocumentPath('operator');

/**
 * A copy of a schema where every object schema without `additionalProperties` gets `false`, but for the
 * direct parts of an `allOf` (they narrow a $ref'd schema that already is strict: closing them would
 * refuse that schema's other fields). Ajv's discriminator takes no `mapping` (it reads the tag from each
 * oneOf branch), so it is dropped.
 */
function strict(node: unknown, allOfPart = false): unknown {
  if (Array.isArray(node)) return node.map((item) => strict(item));
  if (!node || typeof node !== 'object') return node;
  const schema: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    if (key === 'allOf' && Array.isArray(value)) schema.allOf = value.map((part) => strict(part, true));
    else if (key === 'properties' && value && typeof value === 'object')
      schema.properties = Object.fromEntries(Object.entries(value as Schema).map(([name, sub]) => [name, strict(sub)]));
    else if (key === 'discriminator' && value && typeof value === 'object')
      schema.discriminator = { propertyName: (value as Schema).propertyName };
    else if (key === 'example' || key === 'examples') schema[key] = value;
    else schema[key] = strict(value);
  }
  if (schema.type === 'object' && !('additionalProperties' in schema) && !allOfPart) schema.additionalProperties = false;
  return schema;
}

export class ResponseContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, discriminator: true, validateSchema: false });
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly errorShapes: string[];

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    this.errorShapes = ['ErrorBody', 'PixKeyErrorBody'].filter((name) => document.components?.schemas?.[name]);
    this.ajv.addSchema(strict(document) as Schema, DOCUMENT_ID);
    this.operations = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.has(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
          literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
          responses: operation.responses ?? {},
        })),
    );
  }

  static fromFile(path = committedOpenApiPath()): ResponseContract {
    return new ResponseContract(JSON.parse(readFileSync(path, 'utf8')));
  }

  /** The documented operation a request reaches, or undefined for a route the API does not have. */
  operationOf(method: string, path: string): Operation | undefined {
    return this.operations
      .filter((o) => o.method === method.toUpperCase() && o.pattern.test(path))
      .sort((a, b) => b.literalSegments - a.literalSegments)[0];
  }

  /** What is wrong with an answer by the document: [] when it conforms. `path` without the query string. */
  violations(method: string, path: string, status: number, headers: Headers, text: string): string[] {
    const where = `${method.toUpperCase()} ${path} → ${status}`;
    const operation = this.operationOf(method, path);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    if (!operation) {
      if (status !== 404) return [`${where}: no operation in the document for this method and path (an unknown route must answer 404)`];
      // The error shapes this document has (the operator document has no Pix key family).
      const shapes = this.errorShapes.map((name) => ({ $ref: pointer('components', 'schemas', name) }));
      return this.problems(`${where} (unknown route)`, { anyOf: shapes }, body);
    }
    const at = `${where} (${operation.method} ${operation.template})`;
    const response = operation.responses[String(status)] ?? operation.responses.default;
    if (!response) return [`${at}: status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const found: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && headers.get(name) === null) found.push(`${at}: header ${name} is documented as required but missing`);
    }
    const json = response.content?.['application/json'];
    if (!json?.schema) return body === undefined ? found : [...found, `${at}: documented without a body, answered ${text.slice(0, 200)}`];
    const contentType = headers.get('content-type') ?? '';
    if (!contentType.startsWith('application/json'))
      found.push(`${at}: content-type ${contentType || '(none)'}, documented application/json`);
    const ref = pointer(
      'paths',
      operation.template,
      operation.method.toLowerCase(),
      'responses',
      status in operation.responses ? String(status) : 'default',
      'content',
      'application/json',
      'schema',
    );
    return [...found, ...this.problems(at, { $ref: ref }, body)];
  }

  private problems(at: string, schema: Schema, body: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    const errors = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
    );
    return [
      `${at}: body does not match the document: ${[...new Set(errors)].slice(0, 5).join('; ')}; body: ${JSON.stringify(body)?.slice(0, 300)}`,
    ];
  }
}

const shared: Partial<Record<ApiDocument, ResponseContract>> = {};

/** The contract of a committed document, read once. */
export function responseContractOf(document: ApiDocument): ResponseContract {
  return (shared[document] ??= ResponseContract.fromFile(committedDocumentPath(document)));
}

/**
 * The document an answer is checked against: the operator API's for an /admin/ path sent to an operator
 * port (GATEWAY_ADMIN_URL, OPERATOR_GATEWAY_ADMIN_URLS), the Pix provider's for a /provider/ path sent
 * anywhere else (a public port), the partner API's for anything else (an /admin/ path on the public port,
 * or a /provider/ one on an operator port, is an unknown route there, so its 404 is checked as one).
 */
export function documentOf(url: URL): ApiDocument {
  const operatorPorts = [process.env.GATEWAY_ADMIN_URL, ...(process.env.OPERATOR_GATEWAY_ADMIN_URLS?.split(',') ?? [])]
    .filter(Boolean)
    .map((u) => new URL(u as string).origin);
  const onOperatorPort = operatorPorts.includes(url.origin);
  if (url.pathname.startsWith('/admin/') && onOperatorPort) return 'operator';
  if (url.pathname.startsWith('/provider/') && !onOperatorPort) return 'provider';
  return 'partner';
}

/**
 * Checks one answer against its committed document (documentOf) and appends the outcome, one JSON line, to the file
 * named by RESPONSE_CONTRACT_LOG (the e2e Jest config sets it and empties it first; the last e2e suite
 * asserts that no line holds a violation). Without the variable (e.g. `npm run chaos`) nothing is checked.
 */
export function recordResponse(method: string, url: string, status: number, headers: Headers, text: string, request?: SentRequest): void {
  const log = process.env.RESPONSE_CONTRACT_LOG;
  if (!log) return;
  const parsed = new URL(url);
  const path = parsed.pathname;
  const document = documentOf(parsed);
  const violations = responseContractOf(document).violations(method, path, status, headers, text);
  // The whole exchange too, for the third-party validator's pass at the end of the run (prism-validation.ts).
  const exchange: Exchange | undefined = request && {
    document,
    method: method.toLowerCase(),
    path,
    query: parsed.search,
    requestHeaders: request.headers,
    requestBody: request.body,
    answerOnly: request.answerOnly,
    status,
    responseHeaders: Object.fromEntries(headers.entries()),
    responseBody: text,
  };
  appendFileSync(log, `${JSON.stringify({ method: method.toUpperCase(), path, status, violations, exchange })}\n`);
}

/** What was sent, for the exchange's record: headers (lower-case names), the body as sent. */
export interface SentRequest {
  headers: Record<string, string>;
  body?: string;
  /** Sent invalid on purpose (the fuzz suite): only its answer is held to the document. */
  answerOnly?: boolean;
}

/** A fetch for openapi-fetch (the typed client) that records each answer like ApiClient does. */
export async function contractCheckedFetch(request: Request): Promise<Response> {
  const sent: SentRequest | undefined = process.env.RESPONSE_CONTRACT_LOG
    ? { headers: Object.fromEntries(request.headers.entries()), body: request.body ? await request.clone().text() : undefined }
    : undefined;
  const response = await fetch(request);
  if (sent) recordResponse(request.method, request.url, response.status, response.headers, await response.clone().text(), sent);
  return response;
}
