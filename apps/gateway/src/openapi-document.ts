import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '@partner/config';
import { runMain } from '@partner/platform';
import { GatewayConfig } from './config/gateway.config';
import { createGatewayApp } from './gateway-app';
import { createOpenApiDocument } from './http/openapi';

/**
 * `node dist/apps/gateway/src/openapi-document.js <file>`: writes the OpenAPI document of a sandbox
 * gateway (every route, sandbox ones included) as JSON to <file>. `npm run openapi` runs it; it runs on
 * the compiled gateway because the document is read from decorator metadata, which tsx does not emit.
 * Nothing is connected: no broker (a stub bus), no database query, no port.
 */
runMain(async () => {
  const [file] = process.argv.slice(2);
  if (!file) throw new Error('usage: node dist/apps/gateway/src/openapi-document.js <file.json>');
  const config = loadConfig(GatewayConfig, { SANDBOX: 'true', ADMIN_API_KEY: 'openapi-document-only', ADMIN_PORT: '0', LOG_LEVEL: 'silent' });
  const app = await createGatewayApp(config, { logs: false, overrideBus: { request: () => Promise.reject(new Error('no bus: document generation only')) } });
  try {
    writeFileSync(file, `${JSON.stringify(createOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app.close();
  }
});
