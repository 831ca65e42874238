import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '@partner/config';
import { runMain } from '@partner/platform';
import { GatewayConfig } from './config/gateway.config';
import { createGatewayApp } from './gateway-app';
import { createOpenApiDocuments } from './http/openapi';

/**
 * `node dist/apps/gateway/src/openapi-document.js <partner.json> <operator.json> <provider.json>`: writes
 * the OpenAPI documents of a sandbox gateway (the partner one with the sandbox routes, the operator one, the
 * Pix provider's) as JSON. `npm run openapi` runs it; it runs on the compiled gateway because the document
 * is read from decorator metadata, which tsx does not emit. Nothing is connected: no broker (a stub bus),
 * no database query, no port.
 */
runMain(async () => {
  const [partnerFile, operatorFile, providerFile] = process.argv.slice(2);
  if (!partnerFile || !operatorFile || !providerFile)
    throw new Error('usage: node dist/apps/gateway/src/openapi-document.js <partner.json> <operator.json> <provider.json>');
  const config = loadConfig(GatewayConfig, {
    SANDBOX: 'true',
    ADMIN_API_KEY: 'openapi-document-only',
    ADMIN_PORT: '0',
    LOG_LEVEL: 'silent',
  });
  const app = await createGatewayApp(config, {
    logs: false,
    overrideBus: { request: () => Promise.reject(new Error('no bus: document generation only')) },
  });
  try {
    const { partner, operator, provider } = createOpenApiDocuments(app);
    writeFileSync(partnerFile, `${JSON.stringify(partner, null, 2)}\n`);
    writeFileSync(operatorFile, `${JSON.stringify(operator, null, 2)}\n`);
    writeFileSync(providerFile, `${JSON.stringify(provider, null, 2)}\n`);
  } finally {
    await app.close();
  }
});
