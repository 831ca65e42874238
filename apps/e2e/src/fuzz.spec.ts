import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { newCpf, newUuid, requireEnv, VALID_ADDRESS } from '@partner/testing';
import fc from 'fast-check';
import { gatewayAdminUrl, gatewayUrl, newPartner, newUser } from './support/sandbox';

// Hostile input (issue #4): property-based fuzzing of every endpoint's body, path, query and headers
// against the running stack. Whatever arrives, the gateway answers below 500, in the endpoint family's
// error body, and every process survives (/readyz). Valid-looking requests may succeed; that is fine.
// Reproduce a failure with the printed seed: FUZZ_SEED=<seed> FUZZ_RUNS=<runs>; scale up with FUZZ_RUNS.

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/** The gateway's default BODY_LIMIT_BYTES (the test stack keeps it). */
const BODY_LIMIT_BYTES = 64 * 1024;

type Family = 'pix-key' | 'error';
type Json = unknown;

interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  /** A path the route answers; `segment` replaces the path parameter when there is one. */
  path: (segment?: string) => string;
  family: Family;
  /** Who may call it: a partner key or the sandbox admin key. */
  auth: 'partner' | 'admin';
  /** A valid body to mutate (none for GET). */
  valid?: () => Record<string, Json>;
  hasParam?: boolean;
}

interface Sent {
  status: number;
  body: unknown;
  text: string;
}

let cases = 0;
const perEndpoint = new Map<string, number>();

async function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Sent> {
  cases++;
  const res = await fetch(`${gatewayUrl()}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/** The property every answer must have (docs/api.md "Errors": body shape per endpoint family). */
function expectSane(res: Sent, family: Family, context: unknown): void {
  const explain = () => `${res.status} ${res.text.slice(0, 300)} for ${JSON.stringify(context).slice(0, 600)}`;
  if (res.status >= 500) throw new Error(`server error: ${explain()}`);
  if (res.status < 400) return;
  const body = res.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error(`error answer is not a JSON object: ${explain()}`);
  if (typeof body.message !== 'string') throw new Error(`error answer without message: ${explain()}`);
  if (res.status === 401) {
    if (body.error !== 'unauthorized') throw new Error(`401 is not {error: unauthorized}: ${explain()}`);
    return;
  }
  const code = family === 'pix-key' ? body.status : body.error;
  if (typeof code !== 'string' || !/^[a-z_]+$/.test(code)) throw new Error(`error answer not in the ${family} family's shape: ${explain()}`);
}

/** The family of the path the gateway receives: the client resolves `.` and `..` segments first. */
const familyOf = (path: string): Family => (new URL(`${gatewayUrl()}${path}`).pathname.startsWith('/partner/v1/pix-key') ? 'pix-key' : 'error');

// ---------------------------------------------------------------------------------------------------
// Generators

const HUGE_STRING = 'x'.repeat(100_000);
const LARGE_UNDER_LIMIT = 'é'.repeat(20_000);
const hostileString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\uFEFF', '\u202E', '😀'.repeat(50), '../../etc/passwd', "'; DROP TABLE partners; --", '{"$ne":null}', '__proto__', LARGE_UNDER_LIMIT, HUGE_STRING),
);
const hostileNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.MIN_SAFE_INTEGER - 2, 2 ** 31, 2 ** 63),
);
/** Nested arrays/objects up to a depth far beyond anything a contract expects. */
const deep = fc.integer({ min: 50, max: 2_000 }).map((depth) => {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [1, 2, 3], { nested: { x: 1 } }) },
  { weight: 1, arbitrary: deep },
);

/** Every path (dot-joined) of a JSON body, objects and arrays included, so mutations reach nested fields. */
function pathsOf(value: Json, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Object.keys(value).flatMap((key) => pathsOf((value as Record<string, Json>)[key], [...prefix, key]));
  return prefix.length ? [prefix, ...children] : children;
}

type Mutation = { kind: 'delete'; path: string[] } | { kind: 'set'; path: string[]; value: Json } | { kind: 'extra'; key: string; value: Json };

function mutate(body: Record<string, Json>, mutations: Mutation[]): Record<string, Json> {
  const copy = structuredClone(body);
  for (const m of mutations) {
    if (m.kind === 'extra') {
      copy[m.key] = m.value;
      continue;
    }
    let parent: Record<string, Json> | undefined = copy;
    for (const key of m.path.slice(0, -1)) parent = (parent?.[key] ?? undefined) as Record<string, Json> | undefined;
    if (!parent || typeof parent !== 'object') continue;
    const last = m.path[m.path.length - 1];
    if (m.kind === 'delete') delete parent[last];
    else parent[last] = m.value;
  }
  return copy;
}

const mutationsOf = (body: Record<string, Json>): fc.Arbitrary<Mutation[]> => {
  const paths = pathsOf(body);
  const path = paths.length ? fc.constantFrom(...paths) : fc.constant<string[]>(['x']);
  return fc.array(
    fc.oneof(
      path.map((p): Mutation => ({ kind: 'delete', path: p })),
      fc.tuple(path, hostileValue).map(([p, value]): Mutation => ({ kind: 'set', path: p, value })),
      fc.tuple(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'partner_id', 'id', 'prototype')), hostileValue).map(
        ([key, value]): Mutation => ({ kind: 'extra', key, value }),
      ),
    ),
    { minLength: 1, maxLength: 3 },
  );
};

/** Bodies as sent on the wire: mutated valid bodies, arbitrary JSON, and text that is not JSON at all. */
const rawBody = (valid: () => Record<string, Json>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: mutationsOf(valid()).map((ms) => JSON.stringify(mutate(valid(), ms))) },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.record({ value: fc.object() }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.constantFrom(
          '', '{', '}', '{"a":', 'null', 'true', '"str"', '[]', '{"document": 1e400}', '{"usdtmicros": 123456789012345678901234567890}',
          '{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {"x": 1}}}', '\uFEFF{}', '{"a":1,"a":2}', 'NaN', '{"a": NaN}',
          `${'['.repeat(5000)}${']'.repeat(5000)}`, `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
        ),
        fc.jsonValue().map((v) => (JSON.stringify(v) ?? '').slice(0, -1)),
      ),
    },
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json;;;',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/xml',
  'application/vnd.api+json',
  '*/*',
  'garbage',
];
const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Header-safe garbage (fetch refuses control characters and non-Latin-1 header values). */
const headerGarbage = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcXYZ019_-.:/+= %$!~'.split('')), maxLength: 300 }),
  fc.constantFrom('pk_sandbox_', 'pk_sandbox_' + 'A'.repeat(43), 'null', 'undefined', ' '.repeat(3), 'x'.repeat(5_000)),
);

const pathSegment = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom('', '%00', '%2F', '%2e%2e', '..', '.', '%', '%zz', '%E0%A4%A', '%C0%AF', ';', '~', '52998224725', '529.982.247-25', 'x'.repeat(3_000), newUuid(), '0', '-1', '1e9'),
  fc.string({ unit: fc.constantFrom(...'abc09%;,@!$&\'()*+=:'.split('')), maxLength: 20 }),
);

const queryString = (keys: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 10 }).map(encodeURIComponent), fc.constantFrom('a[b]', 'a[]', '__proto__', 'constructor[prototype]', '%', '%zz')),
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
          fc.constantFrom('', 'true', 'false', '0', '-1', '1001', '1e3', '99999999999999999999', '%', '%zz', 'null', '[]', 'x'.repeat(2_000)),
        ),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

// ---------------------------------------------------------------------------------------------------

describe('hostile input (fast-check)', () => {
  let apiKey: string;
  let document: string;
  const adminKey = () => requireEnv('ADMIN_API_KEY');

  beforeAll(async () => {
    console.log(`fuzz: seed ${SEED}, ${RUNS} runs per property (FUZZ_SEED / FUZZ_RUNS to change)`);
    const partner = await newPartner('fuzz partner');
    apiKey = partner.apiKey;
    document = await newUser(partner.api, 5_000_000);
  });

  afterAll(() => {
    console.log(`fuzz: ${cases} requests sent (seed ${SEED}); per endpoint: ${JSON.stringify(Object.fromEntries(perEndpoint))}`);
  });

  const endpoints: Record<string, Endpoint> = {
    'POST /partner/v1/withdrawals/usdt': {
      method: 'POST', path: () => '/partner/v1/withdrawals/usdt', family: 'error', auth: 'partner',
      valid: () => ({ document, idempotency_key: newUuid(), address: VALID_ADDRESS, usdtmicros: 1_000, fee_choice: 'LOW', network: 'MATIC' }),
    },
    'POST /partner/v1/pix-key': {
      method: 'POST', path: () => '/partner/v1/pix-key', family: 'pix-key', auth: 'partner',
      valid: () => ({ document: newCpf(), idempotency_key: newUuid() }),
    },
    'DELETE /partner/v1/pix-key/{document}': {
      method: 'DELETE', path: (segment = newCpf()) => `/partner/v1/pix-key/${segment}`, family: 'pix-key', auth: 'partner', hasParam: true,
      valid: () => ({ idempotency_key: newUuid() }),
    },
    'POST /partner/v1/customers/business': {
      method: 'POST', path: () => '/partner/v1/customers/business', family: 'error', auth: 'partner',
      valid: () => structuredClone(BUSINESS_CUSTOMER_EXAMPLE),
    },
    'GET /partner/v1/withdrawals/usdt/{id}': {
      method: 'GET', path: (segment = '1') => `/partner/v1/withdrawals/usdt/${segment}`, family: 'error', auth: 'partner', hasParam: true,
    },
    'GET /partner/v1/pix-key/{document}': {
      method: 'GET', path: (segment = document) => `/partner/v1/pix-key/${segment}`, family: 'pix-key', auth: 'partner', hasParam: true,
    },
    'GET /partner/v1/customers/business/{id}': {
      method: 'GET', path: (segment = newUuid()) => `/partner/v1/customers/business/${segment}`, family: 'error', auth: 'partner', hasParam: true,
    },
    'GET /partner/v1/pix-in': { method: 'GET', path: () => '/partner/v1/pix-in', family: 'error', auth: 'partner' },
    'GET /partner/v1/events': { method: 'GET', path: () => '/partner/v1/events', family: 'error', auth: 'partner' },
    'PATCH /partner/v1/events/{id}': {
      method: 'PATCH', path: (segment = newUuid()) => `/partner/v1/events/${segment}`, family: 'error', auth: 'partner', hasParam: true,
      valid: () => ({}),
    },
    'POST /sandbox/v1/users': {
      method: 'POST', path: () => '/sandbox/v1/users', family: 'error', auth: 'partner',
      valid: () => ({ document: newCpf(), usdt_micros: 1_000 }),
    },
    'POST /sandbox/v1/pix-in': {
      method: 'POST', path: () => '/sandbox/v1/pix-in', family: 'error', auth: 'partner',
      valid: () => ({ document, amount_cents: 100, method: 'manual' }),
    },
    'POST /sandbox/v1/partners': {
      method: 'POST', path: () => '/sandbox/v1/partners', family: 'error', auth: 'admin',
      valid: () => ({ name: 'fuzzed partner' }),
    },
  };

  const credentials = (endpoint: Endpoint): Record<string, string> =>
    endpoint.auth === 'admin' ? { 'x-admin-key': adminKey() } : { 'x-api-key': apiKey };

  const count = (name: string) => perEndpoint.set(name, (perEndpoint.get(name) ?? 0) + 1);
  const QUERY_KEYS = ['delivered', 'limit', 'cursor', 'type', 'status', 'after'];

  describe.each(Object.entries(endpoints))('%s', (name, endpoint) => {
    if (endpoint.valid) {
      it('bodies: mutated, arbitrary JSON, not JSON, any content type: never a 5xx, always the family error shape', async () => {
        const valid = endpoint.valid as () => Record<string, Json>;
        await fc.assert(
          fc.asyncProperty(rawBody(valid), contentType, async (body, type) => {
            count(name);
            const headers: Record<string, string> = { ...credentials(endpoint) };
            if (type !== undefined) headers['content-type'] = type;
            const res = await send(endpoint.method, endpoint.path(), headers, body);
            expectSane(res, endpoint.family, { body: body.slice(0, 300), type });
            // Anything but JSON is refused before validation (docs/api.md "Errors": 415).
            if (type !== undefined && !/^application\/json/i.test(type) && body.length > 0 && body.length < BODY_LIMIT_BYTES) {
              if (res.status !== 415) throw new Error(`content type ${type} answered ${res.status}, not 415`);
            }
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });
    }

    if (endpoint.hasParam) {
      it('path parameter: random and encoded segments, extra segments', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(pathSegment, { minLength: 1, maxLength: 3 }), async (segments) => {
            count(name);
            // A GET carries no body (fetch refuses one); the others get one that is valid where a body is expected.
            const body = endpoint.method === 'GET' ? undefined : JSON.stringify({ idempotency_key: newUuid() });
            const headers: Record<string, string> = { ...credentials(endpoint), ...(body ? { 'content-type': 'application/json' } : {}) };
            const path = endpoint.path(segments.join('/'));
            const res = await send(endpoint.method, path, headers, body);
            expectSane(res, familyOf(path), { segments });
          }),
          { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
        );
      });
    }

    it('query strings: any keys and values', async () => {
      await fc.assert(
        fc.asyncProperty(queryString(QUERY_KEYS), async (query) => {
          count(name);
          const headers: Record<string, string> = { ...credentials(endpoint) };
          // An empty object: the query is what is fuzzed here, and a valid body would only add slow real work.
          const body = endpoint.method === 'GET' ? undefined : '{}';
          if (body) headers['content-type'] = 'application/json';
          const res = await send(endpoint.method, `${endpoint.path()}?${query}`, headers, body);
          expectSane(res, endpoint.family, { query });
        }),
        { seed: SEED, numRuns: Math.ceil(RUNS / 3) },
      );
    });

    it('credentials: missing, garbage or wrong keys are 401 {error: unauthorized} in every family', async () => {
      await fc.assert(
        fc.asyncProperty(fc.option(headerGarbage, { nil: undefined }), fc.constantFrom('x-api-key', 'x-admin-key', 'authorization'), async (key, header) => {
          count(name);
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (key !== undefined) headers[header] = key;
          const body = endpoint.valid ? JSON.stringify(endpoint.valid()) : undefined;
          const res = await send(endpoint.method, endpoint.path(), headers, body);
          expectSane(res, endpoint.family, { header, key: key?.slice(0, 50) });
          if (res.status !== 401) throw new Error(`${header}: ${key?.slice(0, 50)} answered ${res.status}, not 401`);
        }),
        { seed: SEED, numRuns: Math.ceil(RUNS / 5) },
      );
    });

    if (endpoint.valid) {
      it(`a body over BODY_LIMIT_BYTES is 413 payload_too_large in the family's shape`, async () => {
        count(name);
        const body = JSON.stringify({ ...endpoint.valid?.(), padding: 'x'.repeat(BODY_LIMIT_BYTES + 1) });
        const res = await send(endpoint.method, endpoint.path(), { ...credentials(endpoint), 'content-type': 'application/json' }, body);
        expect(res.status).toBe(413);
        expect(res.body).toMatchObject(endpoint.family === 'pix-key' ? { status: 'payload_too_large' } : { error: 'payload_too_large' });
      });
    }
  });

  it('unknown routes under every prefix answer 404 in the family shape, never 5xx', async () => {
    const prefixes: Array<[string, Family]> = [['/partner/v1/pix-key', 'pix-key'], ['/partner/v1', 'error'], ['/sandbox/v1', 'error'], ['', 'error']];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...prefixes), fc.array(pathSegment, { minLength: 1, maxLength: 3 }), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), async ([prefix, family], segments, method) => {
        const res = await send(method, `${prefix}/${segments.join('/')}`, { 'x-api-key': apiKey, 'content-type': 'application/json' }, method === 'GET' ? undefined : '{}');
        expect(familyOf(prefix || '/x')).toBe(family);
        expectSane(res, familyOf(`${prefix}/${segments.join('/')}`), { method, prefix, segments });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // Regressions: each of these answered wrongly before the fuzzing found it.
  it('a body nested thousands of levels deep is 400 invalid_request (was 500: the validator overflowed the stack)', async () => {
    const body = `{"document":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`;
    const withdrawal = await send('POST', '/partner/v1/withdrawals/usdt', { 'x-api-key': apiKey, 'content-type': 'application/json' }, body);
    expect(withdrawal.status).toBe(400);
    expect(withdrawal.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('nested too deeply') });
    const pixKey = await send('POST', '/partner/v1/pix-key', { 'x-api-key': apiKey, 'content-type': 'application/json' }, body);
    expect(pixKey.status).toBe(400);
    expect(pixKey.body).toMatchObject({ status: 'invalid_request' });
  });

  it("a URL with bad percent-encoding is 400 invalid_request in the family's shape (was Fastify's own body)", async () => {
    const pixKey = await send('DELETE', '/partner/v1/pix-key/%', { 'x-api-key': apiKey, 'content-type': 'application/json' }, '{}');
    expect(pixKey.status).toBe(400);
    expect(pixKey.body).toMatchObject({ status: 'invalid_request', message: expect.any(String) });
    const event = await send('PATCH', '/partner/v1/events/%E0%A4%A', { 'x-api-key': apiKey });
    expect(event.status).toBe(400);
    expect(event.body).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
  });

  it('afterwards every process is still up and ready', async () => {
    const res = await fetch(`${gatewayAdminUrl()}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});
