import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { serveApiReference } from './api-reference';

const DESCRIPTION = `The API a partner calls to act for its users: USDT withdrawals, Pix keys, Pix inflows, business customers, and a feed of events telling how each one ended.

**Authentication.** Every \`/partner/v1\` route needs \`X-API-Key\`. A missing or unknown key is 401 \`{"error": "unauthorized", ...}\` on every family.

**Errors** are JSON in the body shape of the endpoint family: \`{error, message, field?}\` for withdrawals, business customers, events, Pix inflows and the sandbox; \`{status, message, field?}\` for Pix keys. The code (\`error\` / \`status\`) is stable; \`message\` is for humans; \`field\` names the offending input. Each operation lists the codes it can answer. An unknown route is 404 \`not_found\` in the shape of its family.

**Rate limiting.** Each partner has a token bucket (default 50 requests per second, bursts of 100): past it, 429 \`rate_limited\` with \`Retry-After\` in seconds.

**503 \`service_unavailable\`** means the outcome is unknown: retry with the same \`idempotency_key\`.

**Events** are pulled: poll \`GET /partner/v1/events?delivered=false\`, process, acknowledge. Each event's \`data\` depends on its \`type\`.

**Sandbox** routes (\`/sandbox/v1\`) exist only on a gateway started with \`SANDBOX=true\`.

Answers may gain fields in a later version of v1: ignore the ones you do not know.`;

/** The document's fixed part: title, description, tags, security schemes. The operations come from the controllers' decorators. */
function documentConfig(): Omit<OpenAPIObject, 'paths'> {
  return new DocumentBuilder()
    .setTitle('Partner API')
    .setDescription(DESCRIPTION)
    .setVersion('v1')
    .addApiKey({ type: 'apiKey', name: 'X-API-Key', in: 'header', description: 'The partner API key: pk_sandbox_ and 43 characters' }, 'partner')
    .addApiKey({ type: 'apiKey', name: 'X-Admin-Key', in: 'header', description: 'The gateway admin key (ADMIN_API_KEY), sandbox partner creation only' }, 'admin')
    .addTag('withdrawals', 'USDT withdrawals to EVM addresses; usdt_withdrawal events tell how each ended')
    .addTag('pix-keys', "The user's CPF as their Pix key; pix_key events tell how registration and deletion ended")
    .addTag('pix-in', 'Incoming Pix payments to your users; pix_in events report each step')
    .addTag('business customers', 'Business customer registration; a business_customer event follows')
    .addTag('events', 'The feed of events of every type, pulled and acknowledged')
    .addTag('sandbox', 'Test helpers, only with SANDBOX=true')
    .addTag('health', 'Probes, no key')
    .build();
}

/**
 * The OpenAPI document of the gateway as configured (the sandbox routes only when SANDBOX=true). The
 * committed docs/openapi.json is this document of a sandbox gateway (`npm run openapi`).
 */
export function createOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  return SwaggerModule.createDocument(app, documentConfig());
}

/** GET /docs (the API reference page), /docs/openapi.json and /docs/openapi.yaml; no key, not rate limited (README: API). */
export function setupOpenApi(app: NestFastifyApplication): void {
  const document = createOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { ui: false, raw: ['json', 'yaml'], jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
  serveApiReference(app, '/docs', '/docs/openapi.json');
}
