import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';

const DOCUMENT = join(__dirname, '..', '..', '..', '..', 'vendor', 'bacen-pix-api', 'openapi.yaml');

/** The schemas of the vendored document this server checks requests and its own answers against. */
export type PixApiSchema = 'EndToEndId' | 'DevolucaoId' | 'DevolucaoSolicitada' | 'Devolucao';

interface OpenApiDocument {
  components: { schemas: Record<string, object> };
}

/**
 * The Central Bank's Pix API document (vendor/bacen-pix-api/openapi.yaml), its component schemas compiled as
 * JSON Schema. OpenAPI 3.0's `pattern` is unanchored ("[a-zA-Z0-9]{32}" matches inside a longer string), as
 * JSON Schema's is, so the server also checks lengths the document states (minLength/maxLength where given).
 */
export class PixApiDocument {
  private readonly validators = new Map<PixApiSchema, ValidateFunction>();

  constructor(path = DOCUMENT) {
    const document = load(readFileSync(path, 'utf8')) as OpenApiDocument;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'pix-api', components: document.components });
    for (const name of ['EndToEndId', 'DevolucaoId', 'DevolucaoSolicitada', 'Devolucao'] as const) {
      this.validators.set(name, ajv.compile({ $ref: `pix-api#/components/schemas/${name}` }));
    }
  }

  /** The violations of `value` against the document's schema `name`: empty when it conforms. */
  violations(name: PixApiSchema, value: unknown): string[] {
    const validate = this.validators.get(name) as ValidateFunction;
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => `${name}${e.instancePath} ${e.message ?? 'is invalid'}`);
  }
}
