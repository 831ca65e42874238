import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/**
 * Serves the OpenAPI document at /docs/openapi.json and /docs/openapi.yaml (README: API). No bundled UI:
 * it needs @fastify/static, whose ESM-only dependencies Jest cannot load; any OpenAPI viewer reads the file.
 */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Partner API')
    .setDescription('USDT withdrawals and the events feed. Errors: see README "Errors" (body shape per endpoint family).')
    .setVersion('v1')
    .addApiKey({ type: 'apiKey', name: 'X-API-Key', in: 'header' }, 'partner')
    .addApiKey({ type: 'apiKey', name: 'X-Admin-Key', in: 'header' }, 'admin')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { ui: false, raw: ['json', 'yaml'], jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
}
