import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The gateway's one generated document cut into the three it serves and commits (docs/api.md: "Reference"):
 * the partner document (every path but /admin and /provider; sandbox helpers marked `x-sandbox`), the
 * operator document (/admin and /healthz) and the Pix provider's (/provider). Each keeps only the component schemas its paths reach, the tags and
 * security schemes it uses. Pure functions of the document, so the served and the committed copies agree.
 */

type Json = Record<string, unknown>;
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/**
 * A copy of a JSON document. Not structuredClone: under Jest it makes objects of another realm, which
 * js-yaml (the served YAML) dumps as nothing.
 */
const copyOf = (document: OpenAPIObject): OpenAPIObject => JSON.parse(JSON.stringify(document)) as OpenAPIObject;

export const OPERATOR_PREFIX = '/admin/';
export const isOperatorApiPath = (path: string): boolean => path.startsWith(OPERATOR_PREFIX);
export const isProviderApiPath = (path: string): boolean => path.startsWith('/provider/');

/** The headers every answer past a key's authentication carries (the rate-limit guard sets them), as components. */
export const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description:
      'draft-ietf-httpapi-ratelimit-headers-10: what is left of this key\'s bucket, `"<policy>";r=<whole requests left>;t=<seconds until the bucket is full again>`. Absent only if the shared rate-limit store could not be reached (the request was let through).',
    schema: { type: 'string', example: '"partner";r=99;t=1' },
  },
  'RateLimit-Policy': {
    description:
      'draft-ietf-httpapi-ratelimit-headers-10: the bucket of this key, `"<policy>";q=<burst>;w=<seconds an empty bucket takes to fill>` (policy `partner` or `operator`).',
    schema: { type: 'string', example: '"partner";q=100;w=2' },
  },
};

/** Each operation of a document, with its path. */
function operationsOf(document: OpenAPIObject): { path: string; operation: Json }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.has(method))
      .map(([, operation]) => ({ path, operation: operation as Json })),
  );
}

/** The security schemes of a key the rate limit counts calls by (a partner's, an operator's); the Pix provider's signature is none. */
const RATE_LIMITED_SCHEMES = new Set(['partner', 'admin']);

/**
 * Adds RateLimit and RateLimit-Policy (by $ref) to every answer of an operation that takes a key, but its
 * 401 (refused before the rate limit is counted), and declares them in components.headers.
 */
export function withRateLimitHeaders(document: OpenAPIObject): OpenAPIObject {
  const copy = copyOf(document);
  for (const { operation } of operationsOf(copy)) {
    const schemes = ((operation.security as Record<string, unknown>[] | undefined) ?? []).flatMap((s) => Object.keys(s));
    if (!schemes.some((scheme) => RATE_LIMITED_SCHEMES.has(scheme))) continue;
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      if (status === '401') continue;
      response.headers = {
        ...(response.headers as Json),
        ...Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }])),
      };
    }
  }
  copy.components = { ...copy.components, headers: { ...copy.components?.headers, ...RATE_LIMIT_HEADERS } };
  return copy;
}

/** Money and shares are integers: micros are int64 (past 2^31), cents and basis points plain integers. */
const INTEGER_PROPERTY = /(micros|_cents|_bps)$/;

/**
 * Checks the document's money: a property named *micros, *_cents or *_bps typed other than integer is a
 * decorator to fix (generation fails, naming it); *micros get `format: int64`.
 */
export function withIntegerMoney(document: OpenAPIObject): OpenAPIObject {
  const copy = copyOf(document);
  const wrong: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const schema = node as Json;
    if (schema.properties && typeof schema.properties === 'object') {
      for (const [name, property] of Object.entries(schema.properties as Record<string, Json>)) {
        if (!INTEGER_PROPERTY.test(name) || '$ref' in property) continue;
        if (property.type !== 'integer') wrong.push(`${at}/properties/${name} (${String(property.type)})`);
        else if (name.endsWith('micros')) property.format = 'int64';
      }
    }
    for (const [key, value] of Object.entries(schema)) visit(value, `${at}/${key}`);
  };
  visit(copy, '#');
  if (wrong.length) throw new Error(`OpenAPI: money and shares must be typed integer in their @ApiProperty: ${wrong.join(', ')}`);
  return copy;
}

/** Every `#/components/<kind>/<name>` a node refers to, followed through the components it reaches. */
function reachable(document: OpenAPIObject, roots: unknown): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/') && !seen.has(value)) {
        seen.add(value);
        const [, , kind, name] = value.split('/');
        visit((document.components as Record<string, Json> | undefined)?.[kind]?.[name]);
      } else visit(value);
    }
  };
  visit(roots);
  return seen;
}

export interface DocumentPart {
  info: OpenAPIObject['info'];
  servers: NonNullable<OpenAPIObject['servers']>;
  /** Which paths are this document's. */
  paths: (path: string) => boolean;
}

/** The part of `document` whose paths `part.paths` selects: its info and servers, the components, tags and security schemes those paths use. */
export function documentPart(document: OpenAPIObject, part: DocumentPart): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => part.paths(path)));
  const refs = reachable(document, paths);
  const components: Record<string, Json> = {};
  for (const [kind, entries] of Object.entries((document.components ?? {}) as Record<string, Json>)) {
    if (kind === 'securitySchemes') continue;
    const kept = Object.fromEntries(Object.entries(entries).filter(([name]) => refs.has(`#/components/${kind}/${name}`)));
    if (Object.keys(kept).length) components[kind] = kept;
  }
  const used = operationsOf({ ...document, paths });
  const schemes = new Set(
    used.flatMap(({ operation }) => ((operation.security as Record<string, unknown>[] | undefined) ?? []).flatMap((s) => Object.keys(s))),
  );
  const tags = new Set(used.flatMap(({ operation }) => (operation.tags as string[] | undefined) ?? []));
  const securitySchemes = Object.fromEntries(
    Object.entries(document.components?.securitySchemes ?? {}).filter(([name]) => schemes.has(name)),
  );
  return {
    ...document,
    info: part.info,
    servers: part.servers,
    tags: (document.tags ?? []).filter((tag) => tags.has(tag.name)),
    paths,
    components: { ...components, securitySchemes },
  };
}

/** Marks the sandbox helpers (/sandbox/...) `x-sandbox: true`: they exist only on a sandbox gateway. */
export function withSandboxMarks(document: OpenAPIObject): OpenAPIObject {
  const copy = copyOf(document);
  for (const { path, operation } of operationsOf(copy)) if (path.startsWith('/sandbox/')) operation['x-sandbox'] = true;
  return copy;
}
