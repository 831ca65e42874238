import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { serveApiReference } from './api-reference';
import {
  documentPart,
  isOperatorApiPath,
  isProviderApiPath,
  withIntegerMoney,
  withRateLimitHeaders,
  withSandboxMarks,
} from './openapi-split';
import { attachContractDocumentation } from './contract-documentation';

/** The document's fixed part: title, description, tags, security schemes. The operations come from the controllers' decorators. */
function documentConfig(): Omit<OpenAPIObject, 'paths'> {
  return new DocumentBuilder()
    .setTitle(OPENAPI_TITLE)
    .setDescription(OPENAPI_DESCRIPTION)
    .setVersion('v1')
    .addApiKey(
      { type: 'apiKey', name: 'X-API-Key', in: 'header', description: 'The partner API key: pk_sandbox_ and 43 characters' },
      'partner',
    )
    .addApiKey(
      {
        type: 'apiKey',
        name: 'X-Pix-Signature',
        in: 'header',
        description:
          "`t=<unix seconds>,v1=<hex>`: `<hex>` is the HMAC-SHA256, 64 lowercase hex digits, of `<t>.<raw body>` (the timestamp, a dot, then the body's exact bytes as sent, never a re-serialisation) with the secret shared with the provider (PIX_PROVIDER_WEBHOOK_SECRET). `t` within 300 s of the gateway's clock either way. Compared in constant time; missing, malformed, stale or wrong: 401 `invalid_signature`.",
      },
      'pix-provider',
    )
    .addApiKey(
      {
        type: 'apiKey',
        name: 'X-Admin-Key',
        in: 'header',
        description:
          'An operator key (ADMIN_API_KEY, or one created with the CLI): the operator API /admin/v1, and sandbox partner creation',
      },
      'admin',
    )
    .addTag('withdrawals', 'USDT withdrawals to EVM addresses; usdt_withdrawal events tell how each ended')
    .addTag('pix-keys', "The user's CPF as their Pix key; pix_key events tell how registration and deletion ended")
    .addTag('pix-in', 'Incoming Pix payments to your users; pix_in events report each step')
    .addTag('business customers', 'Business customer registration; a business_customer event follows')
    .addTag('events', 'The feed of events of every type, pulled and acknowledged')
    .addTag('sandbox', 'Test helpers, only on a sandbox gateway (SANDBOX=true); each is marked x-sandbox: true')
    .addTag('provider', 'For the Pix provider, not partners: its signed notifications of incoming Pix (X-Pix-Signature, HMAC-SHA256)')
    .addTag(
      'operator',
      'The operator API (/admin/v1, X-Admin-Key; not for partners): partners, their API keys, users and balances, and the audit log of every operator call',
    )
    .addTag('health', 'Probes, no key')
    .build();
}

export const OPENAPI_TITLE = 'Partner API: USDT withdrawals, Pix keys, Pix inflows, business customers, events feed';

/** The document's overview (Markdown): the whole API in a page; docs/api.md has every detail. */
export const OPENAPI_DESCRIPTION = `
The API a partner (fintech, exchange) calls to act for its users in Brazil. Base path \`/partner/v1\`; JSON in and out.
Money is integers: USDT in micros (1 USDT = 1,000,000), BRL in cents. Timestamps are Unix seconds.

- **USDT withdrawals**: \`POST /partner/v1/withdrawals/usdt\` sends USDT from a user's balance (user = CPF) to an
  EVM address on Ethereum (\`ETH\`) or Polygon (\`MATIC\`) with a fee priority. 201 \`{id}\`; its progress
  (\`created\`, \`sent\`, \`settled\` or \`failed\`) comes as \`usdt_withdrawal\` events.
- **Pix keys**: \`POST /partner/v1/pix-key\` registers a user's CPF as their Pix key, \`DELETE /partner/v1/pix-key/{document}\`
  deletes it. Both are asynchronous (202 \`{status: "accepted"}\`); \`pix_key\` events report \`pending\`, \`registered\`,
  \`failed\`, \`deleting\`, \`canceled\`.
- **Pix inflows**: \`GET /partner/v1/pix-in\` lists the Pix payments received by the partner's users, newest first
  (optional \`limit\`, \`cursor\`, \`status\`). Each one goes \`processing\` → \`approved\` → \`success\` (completed at
  the network) → \`credited\`, or ends \`denied\` or \`failed\`; every step is a \`pix_in\` event.
- **Business customers**: \`POST /partner/v1/customers/business\` registers a company (CNPJ) with its owners
  (partners, representatives); 201 \`{id}\`, then a \`business_customer\` event.
- **Events feed**: poll \`GET /partner/v1/events?delivered=false\`, process each event, then acknowledge it with
  \`PATCH /partner/v1/events/{id}\` (no body; an empty one or \`{}\` is fine) or many at once with
  \`POST /partner/v1/events/ack\`. Events are numbered per partner (\`sequence\`) and pageable with \`next_cursor\`.
- **Lists**: \`GET /partner/v1/withdrawals/usdt\`, \`GET /partner/v1/pix-key\` and \`GET /partner/v1/customers/business\`
  list what the partner created, newest first, filtered (a state or status, a CPF or CNPJ, an \`external_id\`, a
  creation window) and paged like the feed (\`limit\`, \`cursor\`, \`next_cursor\`).
- **Balances**: \`GET /partner/v1/users/{document}/balance\` is what a user can withdraw now
  (\`available_usdt_micros\`) and what withdrawals not final yet hold (\`held_usdt_micros\`).
- **SDK for Node.js**: \`@partner-service/sdk\` (a tarball, no dependency) wraps every route above with timeouts,
  retries that keep the idempotency key, async iteration over lists and the feed, and typed errors.

**Authentication**: every \`/partner/v1\` route needs the header \`X-API-Key\` (without a valid key: 401
\`unauthorized\`). A partner sees and changes only its own users, resources and events; another partner's are
404, as if they did not exist. Requests are rate limited per partner (a token bucket, by default 50 requests per second in bursts of 100;
past it, 429 \`rate_limited\` with \`Retry-After\` in seconds). An address that sends many unknown keys gets 429
\`rate_limited\` with \`Retry-After\` for its next unknown ones (a key that works is not affected).
Every answer past the key check carries \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers-10):
the bucket, and what is left of it. An answer that replays an idempotency key's first one carries \`Idempotent-Replayed: true\`.
The \`/sandbox/v1\` routes (test partners, users, simulated Pix payments; \`x-sandbox: true\`) exist only in the sandbox.
The operator API (\`/admin/v1\`) is not part of this document: it has its own, on the operator's port.
Nor is the Pix provider's signed route (\`/provider/v2\`, not for partners): its document is \`/provider/docs/openapi.json\`.

**Errors**: JSON in the body shape of the endpoint family: \`{error, message, field?}\` for withdrawals, business
customers, Pix inflows and events; \`{status, message, field?}\` for Pix keys. \`error\`/\`status\` is a stable code
(\`invalid_request\`, \`invalid_address\`, \`invalid_cnpj\`, \`user_not_found\`, \`not_found\`, \`already_exists\`,
\`insufficient_funds\`, \`idempotency_key_reused\`, \`rate_limited\`, \`service_unavailable\`, ...), \`message\` is for
people and may change, \`field\` names the offending input. Bodies must be \`application/json\` (else 415).
A 503 \`service_unavailable\` (always with \`Retry-After\`) means the outcome is unknown: the command may have been
done or not; wait \`Retry-After\` seconds and retry with the same idempotency key, which gives its one outcome. Answers may gain fields in a later
version of v1: ignore the ones you do not know.

**Idempotency**: withdrawals and Pix key requests carry an \`idempotency_key\` (a UUID of yours), business customer
registrations an optional \`Idempotency-Key\` header (1-255 visible ASCII characters); keys are scoped to the
partner and never expire. Sending the same request with the same key again replays the first answer (a
withdrawal or a business customer: 200 with the same \`id\`) and changes nothing; the key with a different request is 422
\`idempotency_key_reused\`. Requests are compared in their normal form: an address in another letter case is the
same address, a registration's fields in another order the same registration. A refused request binds no key. One
registration per CNPJ per partner: a second one, without a key or under another, is 409 \`already_exists\` naming the
customer's \`id\`.
`.trim();

export const OPERATOR_OPENAPI_TITLE = 'Operator API: partners, their keys, users and balances, the audit log';

const OPERATOR_OPENAPI_DESCRIPTION = `
The operator's API (\`/admin/v1\`), on the gateway's operator port (ADMIN_PORT), never on the port partners reach.
Every route needs an operator key in \`X-Admin-Key\` (a partner key never opens them); every call is written to
the audit log. Errors are \`{error, message, field?}\`; each operator key has its own rate limit (\`RateLimit-Policy:
"operator";...\`, 429 \`rate_limited\` with \`Retry-After\`), and a 503 carries \`Retry-After\`. docs/api.md, "Operator API", has every detail.
`.trim();

export const PROVIDER_OPENAPI_TITLE = 'Pix provider API: signed notifications of incoming Pix';

const PROVIDER_OPENAPI_DESCRIPTION = `
For the Pix provider (the institution connected to the SPI), not for partners: \`POST /provider/v2/pix/inflows\`
tells the gateway that an incoming Pix is at a status, naming the account it was paid into (\`receiver_account\`: the
operator's ISPB, branch, number, type) and, for a Pix by key, the key (\`receiver_key\`), as an SPI credit notification
does; the account says which partner's user receives it. (v1, which named our partner id and the user's CPF, is
retired: its path answers 404.) On the gateway's public port,
in production as in the sandbox (whose simulated Pix go through the same ingestion). No API key: every call is
signed with \`X-Pix-Signature\` (the \`pix-provider\` security scheme), the HMAC-SHA256 of \`<t>.<raw body>\`
over the body's exact bytes.

Notifications are keyed by \`end_to_end_id\`: the first one records the inflow at its status (201), or, when no
user has the receiving account, keeps it aside for the operator, credited to no one (202, \`matched: false\`); later ones
move it along \`processing\` → \`approved\` → \`success\` → \`credited\` (or \`denied\` from \`processing\`, \`failed\`
from \`processing\`, \`approved\` or \`success\`) (200; 202 while kept aside); reaching \`credited\` credits the user's
BRL balance, once. The same or an earlier status changes nothing (200);
any other move is 409 \`invalid_transition\`; other details for a recorded \`end_to_end_id\` are 409
\`end_to_end_id_conflict\`. A 503 \`service_unavailable\` means the outcome is unknown: send the same
notification again, which is safe. Errors are \`{error, message, field?}\`. docs/api.md, "Pix provider
ingestion", has every detail.
`.trim();

/**
 * Where the documents say the API is. The first server is relative: it is the origin the document was
 * fetched from (a gateway serves its own copy), so the reference page's "Try it out" calls that gateway;
 * the others name the deployments, with placeholder hosts (\`.example\`, RFC 2606): a partner is given
 * the real ones with its keys.
 */
const PARTNER_SERVERS = [
  { url: '/', description: 'The gateway that served this document' },
  { url: 'https://api.partner.example', description: 'Production (placeholder host: yours comes with your production keys)' },
  { url: 'https://sandbox.partner.example', description: 'Sandbox (placeholder host: yours comes with your sandbox keys)' },
];
const PROVIDER_SERVERS = [
  { url: '/', description: 'The gateway that served this document (its public port)' },
  { url: 'https://api.partner.example', description: 'Production (placeholder host: the real one comes with the webhook secret)' },
  { url: 'https://sandbox.partner.example', description: 'Sandbox (placeholder host: the real one comes with the webhook secret)' },
];
const OPERATOR_SERVERS = [
  { url: '/', description: 'The operator port (ADMIN_PORT) of the gateway that served this document; never exposed to partners' },
];

/**
 * Every app's GET /metrics (libs/platform's metrics module) is for the internal network's scraper, in no
 * document. Left out here rather than by @ApiExcludeController there: the platform library loads no Swagger.
 */
function withoutMetrics(document: OpenAPIObject): OpenAPIObject {
  const { ['/metrics']: _metrics, ...paths } = document.paths;
  return { ...document, paths };
}

export interface OpenApiDocuments {
  /** Partner routes, sandbox helpers (x-sandbox) and liveness: /docs/openapi.json, docs/openapi.json. */
  partner: OpenAPIObject;
  /** The operator API and liveness: /admin/docs/openapi.json on the operator port, docs/openapi-operator.json. */
  operator: OpenAPIObject;
  /** The Pix provider's signed route: /provider/docs/openapi.json on the public port, docs/openapi-provider.json. */
  provider: OpenAPIObject;
}

/**
 * The OpenAPI documents of the gateway as configured (the sandbox routes only when SANDBOX=true). The
 * committed docs/openapi*.json are those of a sandbox gateway (`npm run openapi`).
 */
export function createOpenApiDocuments(app: NestFastifyApplication): OpenApiDocuments {
  attachContractDocumentation();
  const whole = withIntegerMoney(withRateLimitHeaders(withoutMetrics(SwaggerModule.createDocument(app, documentConfig()))));
  return {
    partner: withSandboxMarks(
      documentPart(whole, {
        info: whole.info,
        servers: PARTNER_SERVERS,
        paths: (path) => !isOperatorApiPath(path) && !isProviderApiPath(path),
      }),
    ),
    operator: documentPart(whole, {
      info: { ...whole.info, title: OPERATOR_OPENAPI_TITLE, description: OPERATOR_OPENAPI_DESCRIPTION },
      servers: OPERATOR_SERVERS,
      paths: (path) => isOperatorApiPath(path) || path === '/healthz',
    }),
    provider: documentPart(whole, {
      info: { ...whole.info, title: PROVIDER_OPENAPI_TITLE, description: PROVIDER_OPENAPI_DESCRIPTION },
      servers: PROVIDER_SERVERS,
      paths: isProviderApiPath,
    }),
  };
}

/**
 * GET /docs (the API reference page), /docs/openapi.json and /docs/openapi.yaml: the partner document;
 * /admin/docs/openapi.json and /admin/docs/openapi.yaml: the operator document, answered on the operator
 * port only (admin-port.ts: /admin is its); /provider/docs/openapi.json and /provider/docs/openapi.yaml:
 * the Pix provider's document, on the public port where the provider calls. No key, not rate limited
 * (docs/api.md: "Reference").
 */
export function setupOpenApi(app: NestFastifyApplication): void {
  // Built on the first request for one, not at start: an eighth of a gateway's start-up CPU (~0.3 s of ~2.4 s,
  // measured with --cpu-prof), which a gateway restarted on a busy machine waits for before it is ready.
  let documents: OpenApiDocuments | undefined;
  const built = () => (documents ??= createOpenApiDocuments(app));
  for (const [base, part] of [
    ['docs', 'partner'],
    ['admin/docs', 'operator'],
    ['provider/docs', 'provider'],
  ] as const) {
    SwaggerModule.setup(base, app, () => built()[part], {
      ui: false,
      raw: ['json', 'yaml'],
      jsonDocumentUrl: `${base}/openapi.json`,
      yamlDocumentUrl: `${base}/openapi.yaml`,
    });
  }
  serveApiReference(app, '/docs', '/docs/openapi.json');
}
