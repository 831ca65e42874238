import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The committed OpenAPI documents, in the order the gateway's openapi-document.js writes them: the partner
 * API's and the operator API's, each with its typed client's types (gitignored, written by every build: a
 * breaking change fails compilation), and the Pix provider's (no client).
 */
export const API_DOCUMENTS: ReadonlyArray<{ json: string; yaml: string; types?: string }> = [
  { json: 'docs/openapi.json', yaml: 'docs/openapi.yaml', types: 'libs/api-client/src/generated/partner-api.ts' },
  { json: 'docs/openapi-operator.json', yaml: 'docs/openapi-operator.yaml', types: 'libs/api-client/src/generated/operator-api.ts' },
  { json: 'docs/openapi-provider.json', yaml: 'docs/openapi-provider.yaml' },
];

/** openapi-typescript: each document's paths, operations and schemas as TypeScript types (openapi-fetch types its calls with them). */
export function generateApiClientTypes(root: string): void {
  for (const { json, types } of API_DOCUMENTS) {
    if (!types) continue;
    execFileSync(join(root, 'node_modules/.bin/openapi-typescript'), [json, '--output', types, '--default-non-nullable=false'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}

// The workspace's Nx target `api-client-types` (project.json) runs this file.
if (require.main === module) generateApiClientTypes(join(__dirname, '..', '..'));
