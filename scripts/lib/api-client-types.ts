import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The committed OpenAPI document, the source of the typed client (libs/api-client). */
export const OPENAPI_JSON = 'docs/openapi.json';
export const OPENAPI_YAML = 'docs/openapi.yaml';

/** The client's generated types: gitignored, written by every build, so a breaking change to the document fails compilation. */
export const API_CLIENT_TYPES = 'libs/api-client/src/generated/partner-api.ts';

/** openapi-typescript: the document's paths, operations and schemas as TypeScript types (openapi-fetch types its calls with them). */
export function generateApiClientTypes(root: string): void {
  execFileSync(join(root, 'node_modules/.bin/openapi-typescript'), [OPENAPI_JSON, '--output', API_CLIENT_TYPES, '--default-non-nullable=false'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
