import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files of Swagger UI's own distribution the page needs, served from node_modules as they are. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Nothing on the page may leave the gateway (the page must work offline, and a partner's browser should
 * not call third parties): the policy lets it load and fetch only from here. Swagger UI sets inline
 * styles and draws its icons as data: images. `validatorUrl: null`: Swagger UI would otherwise ask
 * validator.swagger.io about the document.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const page = (base: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Partner API reference</title>
    <link rel="stylesheet" href="${base}/swagger-ui/swagger-ui.css">
    <link rel="icon" type="image/png" href="${base}/swagger-ui/favicon-32x32.png">
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="${base}/swagger-ui/swagger-ui-bundle.js"></script>
    <script src="${base}/api-reference.js"></script>
  </body>
</html>
`;

const initScript = (documentUrl: string) => `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(documentUrl)},
    dom_id: '#api-reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    validatorUrl: null,
  });
});
`;

/**
 * The API reference page at `base` (GET /docs): Swagger UI (swagger-ui-dist, the distribution
 * @nestjs/swagger itself uses) rendering the document at `documentUrl`. Served by hand rather than by
 * SwaggerModule's `ui` option, which needs @fastify/static (ESM-only dependencies Jest cannot load).
 * Files are read on first request and kept.
 */
export function serveApiReference(app: NestFastifyApplication, base: string, documentUrl: string): void {
  const http = app.getHttpAdapter();
  const root = dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  const asset = (name: string) => cache.get(name) ?? cache.set(name, readFileSync(join(root, name))).get(name);
  const send = (reply: FastifyReply, type: string, body: string | Buffer) =>
    reply
      .header('content-type', type)
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .send(body);

  const html = page(base);
  const script = initScript(documentUrl);
  http.get(base, (_request: unknown, reply: FastifyReply) => send(reply, 'text/html; charset=utf-8', html));
  http.get(`${base}/api-reference.js`, (_request: unknown, reply: FastifyReply) =>
    send(reply, 'application/javascript; charset=utf-8', script),
  );
  for (const [name, type] of Object.entries(ASSETS)) {
    http.get(`${base}/swagger-ui/${name}`, (_request: unknown, reply: FastifyReply) =>
      send(reply.header('cache-control', 'public, max-age=86400'), type, asset(name) as Buffer),
    );
  }
}
