import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The committed OpenAPI documents: the partner API's, the operator API's (both typed clients' sources) and the Pix provider's (none). */
export const OPENAPI_JSON = 'docs/openapi.json';
export const OPENAPI_YAML = 'docs/openapi.yaml';
export const OPERATOR_OPENAPI_JSON = 'docs/openapi-operator.json';
export const OPERATOR_OPENAPI_YAML = 'docs/openapi-operator.yaml';
export const PROVIDER_OPENAPI_JSON = 'docs/openapi-provider.json';
export const PROVIDER_OPENAPI_YAML = 'docs/openapi-provider.yaml';

/** The clients' generated types: gitignored, written by every build (a breaking change fails compilation). */
export const API_CLIENT_TYPES = 'libs/api-client/src/generated/partner-api.ts';
export const OPERATOR_API_CLIENT_TYPES = 'libs/api-client/src/generated/operator-api.ts';

/** openapi-typescript: each document's paths, operations and schemas as TypeScript types (openapi-fetch types its calls with them). */
export function generateApiClientTypes(root: string): void {
  for (const [document, output] of [
    [OPENAPI_JSON, API_CLIENT_TYPES],
    [OPERATOR_OPENAPI_JSON, OPERATOR_API_CLIENT_TYPES],
  ]) {
    execFileSync(join(root, 'node_modules/.bin/openapi-typescript'), [document, '--output', output, '--default-non-nullable=false'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}

// The workspace's Nx target `api-client-types` (project.json) runs this file.
if (require.main === module) generateApiClientTypes(join(__dirname, '..', '..'));
